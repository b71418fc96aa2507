import Logging
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Limits on the server's connections, shared by every connection's `ConnectionGuardHandler`.
/// Slow or idle clients would otherwise hold sockets for ever: 20,000 connections that sent
/// nothing once used up the process's file descriptors and `/health` stopped answering.
public final class ConnectionLimits: Sendable {
    /// Connections open at once; one more is closed at once, with a log line (at most one
    /// every 10 s).
    public let maxConnections: Int
    /// Connections open at once from one TCP peer address; one more from it is closed at
    /// once, so that one client's idle sockets cannot use up `maxConnections` for everyone.
    /// Behind a proxy the proxy is that one address.
    public let maxConnectionsPerAddress: Int
    /// Time to send a whole request head: from the connection's start, or from the end of the
    /// previous answer (so also the keep-alive and idle limit).
    public let headTimeout: TimeAmount
    /// Time from a request's head to the end of its body.
    public let bodyTimeout: TimeAmount
    let logger: Logger
    let open = Atomic<Int>(0)
    let refused = Atomic<Int>(0)
    private let lastWarning = Mutex<NIODeadline?>(nil)
    /// Open connections by peer address, and whether that address's reaching its limit has
    /// been logged; an address leaves when its last connection closes.
    private let byAddress = Mutex<[String: (open: Int, logged: Bool)]>([:])

    public init(
        maxConnections: Int = 4_000, maxConnectionsPerAddress: Int = 256, headTimeout: TimeAmount = .seconds(30),
        bodyTimeout: TimeAmount = .seconds(30), logger: Logger = Logger(label: "admin-panel")
    ) {
        self.maxConnections = max(1, maxConnections)
        self.maxConnectionsPerAddress = max(1, maxConnectionsPerAddress)
        self.headTimeout = headTimeout
        self.bodyTimeout = bodyTimeout
        self.logger = logger
    }

    /// Connections open now.
    public var openConnections: Int { open.load(ordering: .relaxed) }

    /// Counts one more connection from `address`; false when that is over the address's
    /// limit. The first refusal of an address is logged, once until all its connections
    /// have closed, so a client that keeps at its limit writes one line, not one a socket.
    func admit(from address: String) -> Bool {
        let limit = maxConnectionsPerAddress
        let (admitted, log) = byAddress.withLock { counts -> (Bool, Bool) in
            var entry = counts[address] ?? (open: 0, logged: false)
            entry.open += 1
            let over = entry.open > limit
            let log = over && !entry.logged
            if log { entry.logged = true }
            counts[address] = entry
            return (!over, log)
        }
        if log {
            logger.warning(
                "connection limit per address reached: this address's new connections are closed at once",
                metadata: ["address": "\(address)", "max_connections_per_address": "\(limit)"])
        }
        return admitted
    }

    /// One connection from `address` has closed.
    func release(from address: String) {
        byAddress.withLock { counts in
            guard var entry = counts[address] else { return }
            entry.open -= 1
            counts[address] = entry.open > 0 ? entry : nil
        }
    }

    func refuse() {
        let total = refused.wrappingAdd(1, ordering: .relaxed).newValue
        let now = NIODeadline.now()
        let due = lastWarning.withLock { last -> Bool in
            guard last.map({ now - $0 >= .seconds(10) }) ?? true else { return false }
            last = now
            return true
        }
        if due {
            logger.warning(
                "connection cap reached: new connections are closed at once",
                metadata: ["max_connections": "\(maxConnections)", "refused_so_far": "\(total)"])
        }
    }
}

/// One connection's limits: counted against the cap and its address's limit, closed when a
/// request's head or body takes longer than its timeout, or when it stays idle between requests.
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let limits: ConnectionLimits
    private var timer: Scheduled<Void>?
    private var counted = false
    /// The TCP peer's address, counted against its limit (nil when the socket has none).
    private var address: String?

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: arm(context, limits.bodyTimeout)
        case .body: break
        case .end:
            // Answering takes as long as it takes (a live stream lasts a minute).
            timer?.cancel()
            timer = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { arm(context, limits.headTimeout) }
        context.write(data, promise: promise)
    }

    private func start(_ context: ChannelHandlerContext) {
        guard !counted else { return }
        counted = true
        address = context.channel.remoteAddress?.ipAddress
        let underCap = limits.open.wrappingAdd(1, ordering: .relaxed).newValue <= limits.maxConnections
        let underAddressLimit = address.map(limits.admit(from:)) ?? true
        guard underCap, underAddressLimit else {
            if !underCap { limits.refuse() }
            context.close(promise: nil)
            return
        }
        arm(context, limits.headTimeout)
    }

    private func stop() {
        timer?.cancel()
        timer = nil
        if counted {
            counted = false
            limits.open.wrappingSubtract(1, ordering: .relaxed)
            if let address { limits.release(from: address) }
            address = nil
        }
    }

    private func arm(_ context: ChannelHandlerContext, _ amount: TimeAmount) {
        timer?.cancel()
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: amount) { channel.close(promise: nil) }
    }
}
