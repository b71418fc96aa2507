import HTMLRender
import Hummingbird

/// A rendered page as a handler's return value.
struct HTMLPage: ResponseGenerator {
    let root: HTMLNode
    var status: HTTPResponse.Status = .ok

    init(_ component: some HTMLComponent, status: HTTPResponse.Status = .ok) {
        root = component.content
        self.status = status
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        response()
    }

    func response() -> Response {
        let bytes = HTMLDocument(root: root).render()
        return Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .contentLength: String(bytes.count)],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
