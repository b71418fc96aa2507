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
    /// Time to send a whole request head: from the connection's start, or from the end of the
    /// previous answer (so also the keep-alive and idle limit).
    public let headTimeout: TimeAmount
    /// Time from a request's head to the end of its body.
    public let bodyTimeout: TimeAmount
    let logger: Logger
    let open = Atomic<Int>(0)
    let refused = Atomic<Int>(0)
    private let lastWarning = Mutex<NIODeadline?>(nil)

    public init(maxConnections: Int = 4_000, headTimeout: TimeAmount = .seconds(30), bodyTimeout: TimeAmount = .seconds(30),
                logger: Logger = Logger(label: "admin-panel")) {
        self.maxConnections = max(1, maxConnections)
        self.headTimeout = headTimeout
        self.bodyTimeout = bodyTimeout
        self.logger = logger
    }

    /// Connections open now.
    public var openConnections: Int { open.load(ordering: .relaxed) }

    func refuse() {
        let total = refused.wrappingAdd(1, ordering: .relaxed).newValue
        let now = NIODeadline.now()
        let due = lastWarning.withLock { last -> Bool in
            guard last.map({ now - $0 >= .seconds(10) }) ?? true else { return false }
            last = now
            return true
        }
        if due {
            logger.warning("connection cap reached: new connections are closed at once",
                           metadata: ["max_connections": "\(maxConnections)", "refused_so_far": "\(total)"])
        }
    }
}

/// One connection's limits: counted against the cap, closed when a request's head or body
/// takes longer than its timeout, or when it stays idle between requests.
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let limits: ConnectionLimits
    private var timer: Scheduled<Void>?
    private var counted = false

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
        if limits.open.wrappingAdd(1, ordering: .relaxed).newValue > limits.maxConnections {
            limits.refuse()
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
        }
    }

    private func arm(_ context: ChannelHandlerContext, _ amount: TimeAmount) {
        timer?.cancel()
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: amount) { channel.close(promise: nil) }
    }
}

