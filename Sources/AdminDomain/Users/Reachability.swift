import Foundation

/// "Why didn't I get my reminder?" answered from one user's rows: one sentence saying on how
/// many devices reminders and campaign pushes can reach them, and a checklist of findings,
/// each with its evidence and the profile section that shows it. Computed from values
/// already read (the profile, `Reachability.Evidence`), so every rule is testable without HTTP.
public struct Reachability: Sendable, Equatable {
    /// The profile section a finding's evidence is in: its anchor.
    public enum Place: String, Sendable {
        case account, settings, devices, reminders
        case campaignPushes = "campaign-pushes"
    }

    public enum Mark: String, Sendable {
        /// Nothing wrong here.
        case fine
        /// Keeps pushes from this user (or from one of their devices) now.
        case blocks
        /// May keep a push away, or did: worth a look.
        case mayNot = "may-not"
        /// Worth knowing, not a fault (held out on purpose, a push waiting for quiet hours to end).
        case note
    }

    public struct Finding: Sendable, Equatable, CustomStringConvertible {
        public let mark: Mark
        public let what: String
        public let evidence: String
        public let place: Place
        /// For a reminders finding, the user's reminders of that status show its evidence:
        /// the profile lists only the latest 20 by time, often all still to come.
        public let reminders: UserReminders.Status?

        public init(
            _ mark: Mark, _ what: String, evidence: String, place: Place, reminders: UserReminders.Status? = nil
        ) {
            self.mark = mark
            self.what = what
            self.evidence = evidence
            self.place = place
            self.reminders = reminders
        }

        public var description: String { "[\(mark.rawValue)] \(what) | \(evidence) | #\(place.rawValue)" }
    }

    public let sentence: String
    public let findings: [Finding]

    /// A device is stale when not seen for longer than this: FCM's own measure of a stale token.
    public static let staleAfterDays = 30
    /// A reminder sent more than this after its time is late; one still scheduled this long
    /// after it, overdue: the health page's definitions.
    public static let lateAfterSeconds = ReminderAccumulator.onTimeWithin
    public static let overdueAfterSeconds = ReminderAccumulator.overdueAfter
    /// How far back the reminders' and the campaigns' findings look.
    public static let lookBackDays = 30

    /// Whether one device can get a push: what blocks it, and what makes it doubtful.
    struct DeviceReading {
        var blocks: [String] = []
        var doubts: [String] = []
        /// The short reasons, for the sentence.
        var blockKeys: [String] = []
        var doubtKeys: [String] = []
    }

    /// What a kind of push gets: blocked for the whole user, or some of their devices.
    enum Outcome: Equatable {
        case none(String)
        case devices(sure: Int, maybe: Int, of: Int, doubt: String)

        var phrase: String {
            switch self {
            case .none(let reason):
                return "reach none: \(reason)"
            case .devices(let sure, let maybe, let total, let doubt):
                let of = "\(total) device\(total == 1 ? "" : "s")"
                if sure == 0 {
                    return
                        "may not reach this user: \(maybe) of \(of) "
                        + "could get a push but \(maybe == 1 ? "was" : "were") \(doubt)"
                }
                let more = maybe == 0 ? "" : " (\(maybe) more may not: \(doubt))"
                return "reach this user on \(sure) of \(of)\(more)"
            }
        }
    }
}

extension Reachability {
    public init(profile: UserProfile, evidence: Evidence, now: Date) {
        var findings: [Finding] = []
        let settings = profile.settings
        let readings = profile.devices.map { Self.read($0, now: now) }

        // The account and push itself: the same for every kind of push.
        var everyKind: String?
        switch profile.account.status {
        case .known(.active):
            findings.append(Finding(.fine, "Account active", evidence: "status: active", place: .account))
        case .known(let status):
            everyKind = "the account is \(status.rawValue)"
            findings.append(
                Finding(
                    .blocks, "Account \(status.rawValue): nothing is sent to it",
                    evidence: "status: \(status.rawValue)", place: .account))
        case .unknown(let text):
            everyKind = "the account's status “\(text)” is not active"
            findings.append(
                Finding(
                    .blocks, "Account status “\(text)” is not one the panel knows: taken as not active",
                    evidence: "status: \(text)", place: .account))
        }
        findings += Self.timezoneFindings(profile, settings: settings)
        if let settings {
            if settings.pushEnabled {
                findings.append(
                    Finding(.fine, "Push turned on in the app", evidence: "push_enabled: on", place: .settings))
            } else {
                everyKind = everyKind ?? "push is turned off in the app"
                findings.append(
                    Finding(
                        .blocks, "Push turned off in the app: no reminder and no campaign push is sent",
                        evidence: "push_enabled: off", place: .settings))
            }
            for (on, kind) in [
                (settings.foodReminders, "Food reminders"), (settings.documentReminders, "Document reminders"),
            ] {
                findings.append(
                    on
                        ? Finding(.fine, "\(kind) turned on", evidence: "\(Self.column(kind)): on", place: .settings)
                        : Finding(
                            .blocks, "\(kind) turned off", evidence: "\(Self.column(kind)): off", place: .settings))
            }
            findings.append(
                settings.marketingOptIn
                    ? Finding(.fine, "Marketing consent given", evidence: "marketing_opt_in: on", place: .settings)
                    : Finding(
                        .blocks, "Marketing consent withdrawn: no campaign push is sent",
                        evidence: "marketing_opt_in: off", place: .settings))
            findings += Self.scheduleFindings(settings, timezoneReads: profile.calendar.isValidTimezone)
        } else {
            findings.append(
                Finding(
                    .fine, "No notification settings saved: the app's defaults apply",
                    evidence:
                        "push, food and document reminders and marketing consent on; daily at 09:00; "
                        + "30, 15, 7 and 1 days before",
                    place: .settings))
        }
        findings += Self.deviceFindings(profile.devices, readings)
        findings += Self.reminderFindings(evidence.reminders)
        if let settings, !settings.pushEnabled, evidence.reminders.sent > 0 {
            // The rows disagree with the setting: the app keeps no time of the change, so
            // say what both say rather than pick one.
            let sent = evidence.reminders.sent
            findings.append(
                Finding(
                    .note,
                    "Push is off now, yet the backend sent \(sent == 1 ? "1 reminder" : "\(sent.grouped) reminders") "
                        + "of the last \(Self.lookBackDays) days: push was turned off since, "
                        + "or the backend sends without looking",
                    evidence:
                        "push_enabled: off; \(sent.grouped) sent of \(evidence.reminders.due.grouped) due "
                        + "of the last \(Self.lookBackDays) days",
                    place: .reminders, reminders: .sent))
        }
        findings += Self.campaignFindings(evidence)

        // The sentence: each kind of push and what it gets, kinds with the same outcome said together.
        let devices = Self.outcome(readings)
        var kinds: [(String, Outcome)]
        if let everyKind {
            kinds = [("Reminders", .none(everyKind)), ("campaign pushes", .none(everyKind))]
        } else {
            let food = settings?.foodReminders ?? true
            let document = settings?.documentReminders ?? true
            switch (food, document) {
            case (true, true): kinds = [("Reminders", devices)]
            case (false, false): kinds = [("Reminders", .none("food and document reminders are turned off"))]
            case (true, false):
                kinds = [
                    ("Food reminders", devices), ("document reminders", .none("document reminders are turned off")),
                ]
            case (false, true):
                kinds = [("Food reminders", .none("food reminders are turned off")), ("document reminders", devices)]
            }
            kinds.append(
                ("campaign pushes", settings?.marketingOptIn == false ? .none("marketing consent withdrawn") : devices))
        }
        var grouped: [(labels: [String], outcome: Outcome)] = []
        for (label, outcome) in kinds {
            if let index = grouped.firstIndex(where: { $0.outcome == outcome }) {
                grouped[index].labels.append(label.lowercased())
            } else {
                grouped.append(([label], outcome))
            }
        }
        let text = grouped.map { "\($0.labels.joined(separator: " and ")) \($0.outcome.phrase)" }.joined(
            separator: "; ")
        sentence = text.prefix(1).uppercased() + text.dropFirst() + "."
        self.findings = findings
    }

    private static func column(_ kind: String) -> String {
        kind == "Food reminders" ? "food_reminders" : "document_reminders"
    }

    /// What all the devices make of one kind of push the user is otherwise open to.
    static func outcome(_ readings: [DeviceReading]) -> Outcome {
        guard !readings.isEmpty else { return .none("no device registered") }
        let open = readings.filter(\.blocks.isEmpty)
        guard !open.isEmpty else {
            var counts: [(String, Int)] = []
            for key in readings.compactMap(\.blockKeys.first) {
                if let index = counts.firstIndex(where: { $0.0 == key }) {
                    counts[index].1 += 1
                } else {
                    counts.append((key, 1))
                }
            }
            if readings.count == 1 { return .none("\(counts[0].0) on its one device") }
            return .none("no device can get a push (\(counts.map { "\($0.0) on \($0.1)" }.joined(separator: ", ")))")
        }
        let doubtful = open.filter { !$0.doubts.isEmpty }
        var doubts: [String] = []
        for key in doubtful.flatMap(\.doubtKeys) where !doubts.contains(key) { doubts.append(key) }
        return .devices(
            sure: open.count - doubtful.count, maybe: doubtful.count, of: readings.count,
            doubt: doubts.joined(separator: " or "))
    }

    /// Permission, token, the provider's verdict on the token, and when the device was last seen.
    static func read(_ device: UserProfile.Device, now: Date) -> DeviceReading {
        var reading = DeviceReading()
        func block(_ key: String, _ sentence: String) {
            reading.blockKeys.append(key)
            reading.blocks.append(sentence)
        }
        switch device.pushPermission {
        case .known(.granted): break
        case .known(.denied): block("permission denied", "push permission denied")
        case .known(.unknown): block("permission not asked yet", "push permission not asked yet (unknown)")
        case .unknown(let text): block("permission unknown", "push permission “\(text)” is not one the panel knows")
        }
        if device.maskedToken == nil {
            block("no push token", "no push token")
        } else if let dead = device.deadToken {
            block(
                "token rejected by a provider",
                "its token was rejected by the provider on \(dead.recordedAt) UTC (\(dead.reason))")
        }
        if let seen = SQLiteTime.seconds(device.lastSeenAt) {
            let nowSeconds = Int64(now.timeIntervalSince1970.rounded(.down))
            let days = (nowSeconds - seen) / 86_400
            if seen > nowSeconds + 60 {
                reading.doubtKeys.append("last seen in the future")
                reading.doubts.append("last seen “\(device.lastSeenAt)” is in the future: not trusted")
            } else if days > staleAfterDays {
                reading.doubtKeys.append("not seen for over \(staleAfterDays) days")
                reading.doubts.append("not seen for \(days) days (stale after \(staleAfterDays), as FCM counts)")
            }
        } else {
            reading.doubtKeys.append("last seen at a time that does not read")
            reading.doubts.append("last seen “\(device.lastSeenAt)” does not read as a time: not trusted")
        }
        return reading
    }

    static func deviceFindings(_ devices: [UserProfile.Device], _ readings: [DeviceReading]) -> [Finding] {
        guard !devices.isEmpty else {
            return [Finding(.blocks, "No device registered", evidence: "no row in devices", place: .devices)]
        }
        return zip(devices, readings).map { device, reading in
            let name = "Device #\(device.id) (\(device.platform), \(device.pushProvider))"
            let dead = device.deadToken.map { "rejected \($0.recordedAt) UTC" } ?? "not known dead"
            // The app's stamp, as stored: quoted when it does not read as a time.
            let seen = SQLiteTime.readable(device.lastSeenAt) ? "\(device.lastSeenAt) UTC" : "“\(device.lastSeenAt)”"
            let evidence =
                "permission \(device.pushPermission); token \(device.maskedToken.map { "\($0), \(dead)" } ?? "none"); "
                + "last seen \(seen); app \(device.appVersion ?? "?"); OS \(device.osVersion ?? "?")"
            if !reading.blocks.isEmpty {
                return Finding(
                    .blocks, "\(name) cannot get a push: \((reading.blocks + reading.doubts).joined(separator: "; "))",
                    evidence: evidence, place: .devices)
            }
            if !reading.doubts.isEmpty {
                return Finding(
                    .mayNot, "\(name) may not get a push: \(reading.doubts.joined(separator: "; "))",
                    evidence: evidence, place: .devices)
            }
            return Finding(.fine, "\(name) can get a push", evidence: evidence, place: .devices)
        }
    }
}
