import AdminDomain
import Foundation
import Logging
import PushClients
import PushTemplates
import ServiceLifecycle

/// Sends the campaigns' due deliveries through the provider clients: claims deliveries (their
/// rows committed as `sending` first), sends them with the clients' bounded concurrency,
/// and records the outcomes in batched transactions as they come. At start, what was in
/// flight at a crash becomes unknown. At graceful shutdown the batch in hand is finished
/// and recorded; nothing new is claimed. Launches a stop cut short go on first.
///
/// Freezing launched audiences is this service's job too, beside the sending: a launch only
/// marks its campaign `materialising`, and a loop here freezes it a chunk at a time. A
/// shutdown waits for the chunk in hand; the next start goes on from the next one.
///
/// Both loops sleep until something may have changed: a change published on the campaigns'
/// feed (every write that moves a campaign publishes at its commit), the next waiting
/// delivery's due time, a commit by another connection (SQLite's `data_version`, the
/// database's `watch`: the CLI launching in its own process), or the `safety` interval.
public struct CampaignDispatcher: Service {
    let outbox: DeliveryOutbox
    let campaigns: Campaigns
    let push: PushProviders
    let texts: CampaignTexts
    let batchSize: Int
    let recordEvery: Int
    let idle: Duration
    let safety: Duration
    let watch: DatabaseWatch
    let logger: Logger

    /// - Parameter batchSize: claimed at once; about the clients' sends in flight, since a
    ///   claimed delivery still waiting to go out would count unknown after a crash.
    /// - Parameter idle: the shortest sleep, when deliveries are due but none could be claimed
    ///   (a throttle), and after a failed freeze.
    /// - Parameter safety: the longest sleep, should a wake be missed.
    public init(
        outbox: DeliveryOutbox, campaigns: Campaigns, push: PushProviders,
        templates: PushTemplateLibrary = PushTemplateLibrary(),
        batchSize: Int = 256, recordEvery: Int = 128, idle: Duration = .milliseconds(250),
        safety: Duration = .seconds(120),
        watch: DatabaseWatch? = nil, logger: Logger
    ) {
        self.watch = watch ?? outbox.database.watch
        self.outbox = outbox
        self.campaigns = campaigns
        self.push = push
        texts = CampaignTexts(library: templates, database: outbox.database)
        self.batchSize = max(1, batchSize)
        self.recordEvery = max(1, recordEvery)
        self.idle = idle
        self.safety = max(idle, safety)
        self.logger = logger
    }

    public func run() async throws {
        let lost = try await outbox.recoverAfterStop()
        if lost > 0 {
            logger.warning("deliveries in flight at the last stop are counted unknown", metadata: ["count": "\(lost)"])
        }
        let freezeWake = WakeSignal()
        let claimWake = WakeSignal()
        // Subscribed before the first reads, so that nothing committed meanwhile is missed.
        let feed = campaigns.changes.subscribeToAll()
        try await withThrowingTaskGroup(of: Void.self) { watchers in
            watchers.addTask {
                for await _ in feed {
                    freezeWake.signal()
                    claimWake.signal()
                }
            }
            watchers.addTask {
                await watchOtherConnections {
                    freezeWake.signal()
                    claimWake.signal()
                }
            }
            try await withGracefulShutdownHandler {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await freezeLaunches(wake: freezeWake) }
                    group.addTask { try await dispatch(wake: claimWake) }
                    try await group.waitForAll()
                }
            } onGracefulShutdown: {
                freezeWake.signal()
                claimWake.signal()
            }
            // The loops are done: the watchers end with them.
            watchers.cancelAll()
        }
    }

    /// A look at SQLite's `data_version` each `watch.interval` (the database's shared watch):
    /// it moves when another connection committed (another process: the CLI's launch, a
    /// second panel, the backend), which this process's feed never hears of. The only read of
    /// an idle dispatcher besides the `safety` pass, shared with the jobs behind a `ChangeGate`.
    func watchOtherConnections(_ wake: @Sendable () -> Void) async {
        var seen = await watch.version()
        while !Task.isCancelled {
            try? await Task.sleep(for: max(watch.interval, .milliseconds(250)))
            if Task.isCancelled { return }
            guard let version = await watch.version() else { continue }
            if version != seen {
                seen = version
                wake()
            }
        }
    }

    /// Freezes every launched audience, the oldest launch first, then sleeps until a change
    /// wakes it: a read, never a write, while there is none.
    func freezeLaunches(wake: WakeSignal) async throws {
        let stopping: @Sendable () -> Bool = { Task.isShuttingDownGracefully || Task.isCancelled }
        while !stopping() {
            do {
                if try await campaigns.hasLaunchesToFreeze() {
                    let report = try await campaigns.resumeLaunches(stopping: stopping)
                    if report.deliveries > 0 {
                        logger.info(
                            "launched audiences frozen",
                            metadata: ["deliveries": "\(report.deliveries)", "chunks": "\(report.chunks)"])
                    }
                    continue
                }
            } catch {
                if stopping() { return }
                // The launch stays `materialising`: tried again after the pause, or at the next start.
                logger.error("freezing a launched audience failed; trying again", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: max(idle, .milliseconds(50)))
                continue
            }
            await wake.wait(atMost: safety)
        }
    }

    /// Sleeps until a wake, the next due delivery (not sooner than `idle`: due but not
    /// claimed means a throttle), or `safety`.
    func pauseClaims(wake: WakeSignal) async {
        let nextDue: Date?
        do {
            nextDue = try await outbox.nextDue()
        } catch {
            if Task.isCancelled { return }
            logger.error("reading the next due delivery failed", metadata: ["error": "\(error)"])
            try? await Task.sleep(for: idle)
            return
        }
        var pause = safety
        if let nextDue {
            let until = Duration.milliseconds(Int64((nextDue.timeIntervalSinceNow * 1000).rounded(.up)))
            pause = min(safety, max(idle, until))
        }
        await wake.wait(atMost: pause)
    }

    /// Keeps up to `batchSize` sends going: claims more once half have come back, rather
    /// than waiting for a batch's slowest send. Outcomes are recorded every `recordEvery`,
    /// when a quarter of a second has passed since the first unrecorded one, and when
    /// nothing is in flight. Sends in flight are not cancelled by a graceful shutdown: a
    /// claimed delivery is sent and recorded, or it becomes unknown at the next start.
    func dispatch(wake: WakeSignal) async throws {
        let push = self.push
        let clock = ContinuousClock()
        let texts = self.texts
        let changes = campaigns.changes
        var throttle = Throttle()
        try await withThrowingTaskGroup(of: (ClaimedDelivery, DeliveryResult).self) { group in
            var inFlight = 0
            var results: [(ClaimedDelivery, DeliveryResult)] = []
            var firstPending = clock.now
            func flush() async throws {
                guard !results.isEmpty else { return }
                // In a task of its own, so that a cancelled dispatcher still records what came
                // back (GRDB refuses a write to a cancelled task) instead of leaving it `sending`,
                // to be counted unknown.
                let batch = results
                let outbox = self.outbox
                // Published at its commit: live pages and a pause waiting for sends in flight read then.
                try await Task { try await outbox.record(batch, publishingOn: changes) }.value
                results.removeAll(keepingCapacity: true)
            }
            while true {
                let stopping = Task.isShuttingDownGracefully || Task.isCancelled
                // A claim that only settled or put off rows (the rules checked again at the
                // claim) claims again at once: the rest may be sendable.
                var movedRows = false
                if !stopping, inFlight <= batchSize / 2 {
                    // Shielded from cancellation as the recording is: a claim cut off between
                    // its commit and its return would leave rows `sending` that nobody sends.
                    // The read before it is not: cancelled, it claims nothing, and the loop
                    // goes on to record the sends in flight.
                    let limit = batchSize - inFlight
                    let outbox = self.outbox
                    let sending: [(id: Int64, perSecond: Int?)]
                    do {
                        sending = try await outbox.sendingCampaigns()
                    } catch {
                        if !Task.isCancelled { throw error }
                        continue
                    }
                    let allowance = throttle.allowance(for: sending, at: clock.now)
                    let (claimed, touched, _) = try await Task {
                        try await outbox.claimBatch(limit: limit, allowance: allowance, publishingOn: changes)
                    }.value
                    movedRows = claimed.isEmpty && !touched.isEmpty
                    throttle.spend(claimed)
                    // Claimed rows are committed as sending: from here each is sent, whatever happens.
                    let rendered = await Task { await texts.render(claimed) }.value
                    for delivery in claimed {
                        let text = rendered[delivery.rowID]
                        group.addTask { (delivery, await Self.send(delivery, text: text, through: push)) }
                    }
                    inFlight += claimed.count
                }
                if inFlight == 0 {
                    try await flush()
                    if stopping { return }
                    if !movedRows { await pauseClaims(wake: wake) }
                    continue
                }
                guard let result = try await group.next() else { continue }
                inFlight -= 1
                if results.isEmpty { firstPending = clock.now }
                results.append(result)
                if results.count >= recordEvery || inFlight == 0 || clock.now - firstPending > .milliseconds(250) {
                    try await flush()
                }
            }
        }
    }

    static func send(_ delivery: ClaimedDelivery, text: (title: String, body: String)?, through push: PushProviders)
        async -> DeliveryResult
    {
        guard let provider = PushProviders.Provider(delivery.provider) else {
            return .failed(reason: "the device's provider \(delivery.provider) is not one the panel sends to")
        }
        let message = PushMessage(
            deliveryID: delivery.deliveryID, token: delivery.token, platform: PushPlatform(delivery.platform),
            title: text?.title ?? delivery.title, body: text?.body ?? delivery.body, deepLink: delivery.deepLink,
            timeToLive: .seconds(delivery.timeToLive), attempt: delivery.attempt)
        guard let outcome = await push.send(message, via: provider) else {
            return .credentials(reason: "no \(provider == .fcm ? "FCM service account" : "APNs key") is configured")
        }
        return DeliveryResult(outcome)
    }
}

extension DeliveryResult {
    init(_ outcome: PushOutcome) {
        self =
            switch outcome {
            case .accepted(let id): .accepted(messageID: id)
            case .deadToken(let reason): .dead(reason: reason)
            case .retryLater(let reason, let after): .retry(reason: reason, after: after)
            case .credentialsProblem(let reason): .credentials(reason: reason)
            case .failed(let reason): .failed(reason: reason)
            case .unknown(let reason): .unknown(reason: reason)
            }
    }
}
