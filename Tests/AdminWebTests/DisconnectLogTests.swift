import Hummingbird
import NIOCore
import NIOHTTP1
import Testing

@testable import AdminWeb

/// A client that goes away mid-request raises NIO's channel and I/O errors, or cancels the
/// handler's task: the request log says so instead of counting a server error.
@Suite(.timeLimit(.minutes(20))) struct DisconnectLogTests {
    @Test func aClosedConnectionIsADisconnectAndAnythingElseIsNot() {
        #expect(RequestLogMiddleware.isDisconnect(ChannelError.ioOnClosedChannel))
        #expect(RequestLogMiddleware.isDisconnect(ChannelError.eof))
        #expect(RequestLogMiddleware.isDisconnect(CancellationError()))
        #expect(RequestLogMiddleware.isDisconnect(IOError(errnoCode: 104, reason: "read")))
        #expect(RequestLogMiddleware.isDisconnect(HTTPParserError.invalidEOFState), "a body cut short")
        #expect(
            !RequestLogMiddleware.isDisconnect(HTTPParserError.invalidMethod), "a malformed request is no disconnect")
        #expect(!RequestLogMiddleware.isDisconnect(HTTPError(.internalServerError)))
        #expect(!RequestLogMiddleware.isDisconnect(HTTPError(.badRequest)))
    }
}
