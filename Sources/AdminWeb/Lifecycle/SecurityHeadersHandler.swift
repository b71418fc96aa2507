import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Gives the security headers to every response written on a connection that lacks them:
/// those answered outside the router, such as Hummingbird's 400 for a request line or head
/// too large to parse, once went out with no CSP and no `nosniff`. Router responses already
/// carry them (`SecurityHeadersMiddleware`) and pass unchanged.
final class SecurityHeadersHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let tls: Bool

    init(tls: Bool) {
        self.tls = tls
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var response) = unwrapOutboundIn(data), response.status.kind != .informational,
            response.headerFields[.contentSecurityPolicy] == nil
        else {
            context.write(data, promise: promise)
            return
        }
        SecurityHeaders.add(to: &response.headerFields, tls: tls, cacheable: false)
        context.write(wrapOutboundOut(.head(response)), promise: promise)
    }
}
