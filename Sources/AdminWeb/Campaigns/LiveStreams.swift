import AdminDomain
import Foundation

/// The live-progress streams open now, by session: a session holds at most `perSession` at
/// once (three tabs watching campaigns is plenty; a page that leaks connections is refused).
/// Each open stream holds a lease, given back when the stream ends, and given up by itself at
/// the end of its length (plus a margin) should a stream never run its ending. A page closed
/// is noticed only when its stream next writes: a session at its limit first asks its streams
/// to write, so that one whose page has gone ends and makes room.
actor LiveStreams {
    static let perSession = 3
    /// How long a lease outlives its stream's planned end before it is given up unasked.
    static let margin: Duration = .seconds(10)

    struct Lease: Sendable, Hashable {
        let session: String
        let number: Int
        let until: ContinuousClock.Instant
    }

    private var open: [String: Set<Lease>] = [:]
    private var next = 0
    /// Sessions whose streams are asked to write at once, until when: a stream whose page was
    /// closed is only found out by a write that fails, and it then gives its place back.
    private var probing: [String: ContinuousClock.Instant] = [:]

    /// A place for one stream of `session` lasting `length`, or nil when it holds `perSession`.
    func open(session token: String, for length: Duration, now: ContinuousClock.Instant = .now) -> Lease? {
        let key = SecureToken.sha256Hex(token)
        var leases = (open[key] ?? []).filter { $0.until > now }
        guard leases.count < Self.perSession else {
            open[key] = leases
            return nil
        }
        next += 1
        let lease = Lease(session: key, number: next, until: now + length + Self.margin)
        leases.insert(lease)
        open[key] = leases
        return lease
    }

    /// A place as `open` gives one, after asking the session's streams to write (a page
    /// closed or left since is found out then) and waiting up to `patience` for one to end.
    func take(
        session token: String, for length: Duration, patience: Duration = .milliseconds(1_500)
    ) async -> Lease? {
        if let lease = open(session: token, for: length) { return lease }
        let key = SecureToken.sha256Hex(token)
        let until = ContinuousClock.now + patience
        probing[key] = until
        while ContinuousClock.now < until {
            try? await Task.sleep(for: .milliseconds(100))
            if let lease = open(session: token, for: length) { return lease }
        }
        return nil
    }

    /// Whether a stream of this lease's session should write now, to find out it is still read.
    func wantsWrite(_ lease: Lease, now: ContinuousClock.Instant = .now) -> Bool {
        guard let until = probing[lease.session] else { return false }
        if until > now { return true }
        probing[lease.session] = nil
        return false
    }

    func close(_ lease: Lease) {
        open[lease.session]?.remove(lease)
        if open[lease.session]?.isEmpty == true { open[lease.session] = nil }
    }

    /// The streams `session` holds open now.
    func count(session token: String, now: ContinuousClock.Instant = .now) -> Int {
        (open[SecureToken.sha256Hex(token)] ?? []).filter { $0.until > now }.count
    }
}
