import Foundation
import Testing

@testable import PushClients

@Suite("The request bodies' JSON", .timeLimit(.minutes(20)))
struct JSONWriterTests {
    static let hostile = [
        "\"quoted\" \\back\\slash", "line\nbreak\r\ttab", "\u{0}nul\u{1}\u{1F}\u{7F}", "🥛 Ünïcode \u{202E}rtl \u{2028}",
        "</script><b>", "",
    ]

    @Test(arguments: hostile)
    func anyTextRoundTripsThroughAStrictParser(text: String) throws {
        var json = JSONWriter()
        json.beginObject()
        json.member(text, text)
        json.member("nested", object: [("a", text), ("b", "x")])
        json.member("flag", true)
        json.endObject()
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String: Any])
        #expect(parsed[text] as? String == text)
        #expect(parsed["nested"] as? [String: String] == ["a": text, "b": "x"])
        #expect(parsed["flag"] as? Bool == true)
    }

    @Test func theFCMPayloadSizeIsTheNotificationAndDataAsSent() throws {
        let push = PushMessage(
            deliveryID: "d-1", token: "t", platform: .android, title: "T\"", body: "B\n", deepLink: "x://y")
        let body = FCMRequestBody(push, now: Date())
        let expected =
            #"{"notification":{"title":"T\"","body":"B\n"},"data":{"delivery_id":"d-1","deep_link":"x://y"}}"#
        #expect(body.payloadBytes == expected.utf8.count)
        #expect(String(decoding: body.bytes, as: UTF8.self).contains(expected.dropFirst().dropLast()))
    }
}
