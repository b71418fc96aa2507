import HTMLRender
import QRCode
import Testing

@testable import AdminWeb

@Suite(.timeLimit(.minutes(20))) struct QRCodeImages {
    @Test func theSVGIsOnePathWithAQuietZoneAndNoStyle() throws {
        let code = try QRCode.encode(Array("hello".utf8), mask: 2)
        let svg = String(
            decoding: HTMLDocument(root: QRCodeImage(code: code, label: "key").content).render(), as: UTF8.self)
        #expect(svg.contains("viewBox=\"0 0 29 29\""))
        #expect(svg.contains("<path d=\"M4 4h7v1h-7z"))
        #expect(!svg.contains("style"))
    }
}
