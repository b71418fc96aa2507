import AdminDomain
import Foundation
import PushTemplates

/// Audience previews computed in the background, through a bounded queue: at most
/// `maxRunning` at once (each already reads two user ranges at a time), so that browsing a
/// hundred drafts cannot starve support's pages of readers. A page asks and gets its place
/// in the queue or the progress at once, never waiting on a scan. A draft's preview is
/// computed once for its inputs (audience, schedule, message) and kept ten minutes; a
/// staff member's own drafts go before others' in the queue.
actor AudiencePreviews {
    enum State: Sendable {
        /// Waiting for a free place: `ahead` previews go first.
        case queued(ahead: Int)
        case counting(progress: Double)
        case ready(AudiencePreview, at: Date)
        case failed(String)
    }

    struct Job: Sendable {
        let id: Int64
        let fingerprint: String
        let segment: CampaignSegment
        let schedule: CampaignSchedule
        let placeholders: Set<String>
        /// The holdout's draw, to count whom it takes.
        let holdout: HoldoutDraw
        /// Asked for by the draft's own author: goes before others' drafts.
        let ownDraft: Bool
    }

    private var states: [Int64: (state: State, fingerprint: String)] = [:]
    private var order: [Int64] = []
    private var queue: [Job] = []
    private var running = 0
    let audience: Audience
    let defaultTimeZone: String
    let database: PanelDatabase
    /// To know which placeholders a campaign's message names, in any of its languages.
    let templates: PushTemplateLibrary
    let maxRunning: Int
    /// How long a stale confirmation waits for its recount (`PanelConfiguration.recountWait`).
    let recountWait: Duration
    /// Where the counts run: the panel's background work, cancelled at shutdown.
    let work: BackgroundWork
    static let keptFor: TimeInterval = 600
    /// Previews kept: far more than the drafts anyone browses, so that looking at many
    /// drafts never evicts one before it is looked at again (a preview is a few KB).
    static let keptAtMost = 1_000

    init(
        audience: Audience, defaultTimeZone: String, database: PanelDatabase,
        templates: PushTemplateLibrary = PushTemplateLibrary(),
        maxRunning: Int = 1, recountWait: Duration = .seconds(2), work: BackgroundWork
    ) {
        self.work = work
        self.recountWait = recountWait
        self.templates = templates
        self.audience = audience
        self.defaultTimeZone = defaultTimeZone
        self.database = database
        self.maxRunning = max(1, maxRunning)
    }

    /// What a preview depends on: a change to any of them counts it again.
    static func fingerprint(_ campaign: CampaignRecord) -> String {
        [
            campaign.segment?.storedText ?? "?", String(describing: campaign.schedule), campaign.title, campaign.body,
            campaign.template ?? "",
            String(campaign.experiment.holdoutPercent),
        ]
        .joined(separator: "\u{1F}")
    }

    /// The preview as far as it got; queues one when there is none for these inputs, or it
    /// is too old, or the last one failed. `requestedBy`: the email of who is looking.
    func state(for campaign: CampaignRecord, requestedBy: String? = nil, now: Date = Date()) -> State {
        let fingerprint = Self.fingerprint(campaign)
        if let entry = states[campaign.id], entry.fingerprint == fingerprint {
            switch entry.state {
            case .queued: return .queued(ahead: queue.firstIndex { $0.id == campaign.id } ?? 0)
            case .counting: return entry.state
            case .ready(_, let at) where now.timeIntervalSince(at) < Self.keptFor: return entry.state
            default: break
            }
        }
        guard let segment = campaign.segment else {
            return .failed("This campaign's audience was saved by a newer panel and cannot be read here.")
        }
        let text = try? CampaignText(
            title: campaign.title, body: campaign.body, template: campaign.template, library: templates)
        let used = text?.variants.reduce(into: Set<String>()) { $0.formUnion($1.template.placeholdersUsed) } ?? []
        let own = requestedBy != nil && requestedBy == campaign.createdBy
        let job = Job(
            id: campaign.id, fingerprint: fingerprint, segment: segment, schedule: campaign.schedule,
            placeholders: used,
            holdout: HoldoutDraw(campaign: campaign.id, percent: campaign.experiment.holdoutPercent), ownDraft: own)
        queue.removeAll { $0.id == campaign.id }
        if own, let firstOther = queue.firstIndex(where: { !$0.ownDraft }) {
            queue.insert(job, at: firstOther)
        } else {
            queue.append(job)
        }
        set(.queued(ahead: 0), for: campaign.id, fingerprint: fingerprint)
        startNext()
        return state(for: campaign, requestedBy: requestedBy, now: now)
    }

    /// Previews waiting or being counted: what a benchmark waits to see drained.
    var pending: Int { queue.count + running }
    /// Previews being counted now: never more than `maxRunning`.
    var runningNow: Int { running }

    private func startNext() {
        while running < maxRunning, !queue.isEmpty {
            let job = queue.removeFirst()
            running += 1
            set(.counting(progress: 0), for: job.id, fingerprint: job.fingerprint)
            let (audience, zone, database) = (audience, defaultTimeZone, database)
            work.submit {
                let state: State
                do {
                    var preview = try await audience.preview(
                        job.segment, schedule: job.schedule, defaultTimeZone: zone,
                        fallbacks: FallbackGroup.used(by: job.placeholders), holdout: job.holdout,
                        in: database
                    ) { fraction in
                        await self.progress(fraction, for: job.id, fingerprint: job.fingerprint)
                    }
                    preview.placeholdersUsed = job.placeholders
                    state = .ready(preview, at: Date())
                } catch {
                    state = .failed(
                        "The audience could not be counted: the database did not answer. Reload to try again.")
                }
                await self.finish(job, state)
            }
        }
    }

    private func progress(_ fraction: Double, for id: Int64, fingerprint: String) {
        // A late report must not overwrite the finished result, nor one for other inputs.
        guard let entry = states[id], entry.fingerprint == fingerprint, case .counting = entry.state else { return }
        states[id] = (.counting(progress: fraction), fingerprint)
    }

    private func finish(_ job: Job, _ state: State) {
        running -= 1
        if states[job.id]?.fingerprint == job.fingerprint { set(state, for: job.id, fingerprint: job.fingerprint) }
        startNext()
    }

    /// A finished preview young enough to launch from, or nil.
    func ready(_ id: Int64, now: Date = Date()) -> (AudiencePreview, Date)? {
        if case .ready(let preview, let at)? = states[id]?.state, now.timeIntervalSince(at) < Self.keptFor {
            return (preview, at)
        }
        return nil
    }

    /// Counts again from now, whatever was counted before: a confirmation whose count is older
    /// than the latest launch.
    func recount(_ campaign: CampaignRecord, requestedBy: String? = nil) -> State {
        forget(campaign.id)
        return state(for: campaign, requestedBy: requestedBy)
    }

    /// Waits up to `limit` for the campaign's preview to be ready (a recount on a small
    /// audience takes milliseconds), checking every 20 ms.
    func waitReady(_ id: Int64, within limit: Duration) async -> (AudiencePreview, Date)? {
        let deadline = ContinuousClock.now + limit
        while true {
            if let ready = ready(id) { return ready }
            switch states[id]?.state {
            case .queued?, .counting?: break
            default: return nil
            }
            guard ContinuousClock.now < deadline else { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    private func set(_ state: State, for id: Int64, fingerprint: String) {
        if states[id] == nil {
            order.append(id)
            // The oldest finished one goes; one waiting or being counted never does.
            if order.count > Self.keptAtMost,
                let index = order.firstIndex(where: { key in
                    switch states[key]?.state {
                    case .queued?, .counting?: false
                    default: true
                    }
                })
            {
                states[order.remove(at: index)] = nil
            }
        }
        states[id] = (state, fingerprint)
    }

    func forget(_ id: Int64) {
        states[id] = nil
        order.removeAll { $0 == id }
        queue.removeAll { $0.id == id }
    }
}
