import AdminDomain
import Foundation

/// Journeys' dry runs, computed in the background one at a time (each may read a whole
/// trigger range): a page asks and gets the state at once, never waiting on the scan. A
/// result is kept a few minutes for the journey's inputs (conditions, rules, holdout, status).
actor JourneyDryRuns {
    enum State: Sendable, Equatable {
        case queued(ahead: Int)
        case counting
        case ready(JourneyDryRun, at: Date)
        case failed(String)
    }

    private var states: [Int64: (state: State, fingerprint: String)] = [:]
    private var queue: [(id: Int64, fingerprint: String)] = []
    private var running = false
    let audience: Audience
    let defaultTimeZone: String
    let database: PanelDatabase
    /// Where the dry runs run: the panel's background work, cancelled at shutdown.
    let work: BackgroundWork
    static let keptFor: TimeInterval = 180

    init(audience: Audience, defaultTimeZone: String, database: PanelDatabase, work: BackgroundWork) {
        self.work = work
        self.audience = audience
        self.defaultTimeZone = defaultTimeZone
        self.database = database
    }

    /// What a dry run depends on: a change to any of them counts it again.
    static func fingerprint(_ journey: JourneyRecord) -> String {
        [
            journey.campaign.segment?.storedText ?? "?", String(describing: journey.rules),
            String(journey.campaign.experiment.holdoutPercent),
            journey.campaign.status.storedText,
        ].joined(separator: "\u{1F}")
    }

    /// The dry run as far as it got; queues one when there is none for these inputs, or it
    /// is too old, or the last one failed.
    func state(for journey: JourneyRecord, now: Date = Date()) -> State {
        let fingerprint = Self.fingerprint(journey)
        if let entry = states[journey.id], entry.fingerprint == fingerprint {
            switch entry.state {
            case .queued: return .queued(ahead: queue.firstIndex { $0.id == journey.id } ?? 0)
            case .counting: return .counting
            case .ready(_, let at) where now.timeIntervalSince(at) < Self.keptFor: return entry.state
            default: break
            }
        }
        queue.removeAll { $0.id == journey.id }
        queue.append((journey.id, fingerprint))
        states[journey.id] = (.queued(ahead: queue.count - 1), fingerprint)
        startNext()
        return states[journey.id]?.state ?? .queued(ahead: 0)
    }

    func forget(_ id: Int64) {
        states[id] = nil
        queue.removeAll { $0.id == id }
    }

    private func startNext() {
        guard !running, !queue.isEmpty else { return }
        let job = queue.removeFirst()
        running = true
        states[job.id] = (.counting, job.fingerprint)
        let (audience, zone, database) = (audience, defaultTimeZone, database)
        work.submit {
            let state: State
            do {
                let result = try await JourneyDryRun.run(
                    journey: job.id, audience: audience, defaultTimeZone: zone, now: Date(), in: database)
                state = .ready(result, at: Date())
            } catch {
                state = .failed("The dry run could not be made: the database did not answer. Reload to try again.")
            }
            await self.finish(job, state)
        }
    }

    private func finish(_ job: (id: Int64, fingerprint: String), _ state: State) {
        running = false
        // A newer request for other inputs replaced this one meanwhile: it keeps its place.
        if states[job.id]?.fingerprint == job.fingerprint { states[job.id] = (state, job.fingerprint) }
        // Old results go, so that the table stays small.
        let now = Date()
        states = states.filter { entry in
            if case .ready(_, let at) = entry.value.state { return now.timeIntervalSince(at) < Self.keptFor * 2 }
            return true
        }
        startNext()
    }
}
