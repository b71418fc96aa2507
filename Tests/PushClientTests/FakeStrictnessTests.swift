import Foundation
import Testing

@testable import PushFakes

/// The fake is only worth its tests if it refuses what FCM refuses.
@Suite("The fake FCM refuses what FCM refuses", .timeLimit(.minutes(20)))
struct FakeStrictnessTests {
    static let good =
        #"{"validate_only":false,"message":{"token":"t","notification":{"title":"a","body":"b"},"#
        + #""data":{"delivery_id":"d"},"android":{"priority":"high","ttl":"60s","notification":{"tag":"d"}},"#
        + #""apns":{"headers":{"apns-collapse-id":"d"}}}}"#

    @Test func aWellFormedMessagePasses() throws {
        guard case .success(let check) = FCMMessageCheck.parse(Data(Self.good.utf8)) else {
            Issue.record("refused")
            return
        }
        #expect(check.token == "t" && !check.validateOnly)
    }

    @Test(arguments: [
        (#""validate_only":false"#, #""validate_only":0"#),
        (#""validate_only":false"#, #""validateOnly":false"#),
        (#""token":"t""#, #""token":"t","priority":"high""#),
        (#""delivery_id":"d""#, #""delivery_id":7"#),
        (#""ttl":"60s""#, #""ttl":"60""#),
        (#""ttl":"60s""#, #""ttl":60"#),
        (#""priority":"high""#, #""priority":"urgent""#),
        (#""priority":"high""#, #""importance":"high""#),
        (#""tag":"d""#, #""tag":"other""#),
        (#""apns-collapse-id":"d""#, #""apns-collapse-id":"other""#),
        (#""title":"a""#, #""subtitle":"a""#),
        (#""token":"t","#, ""),
    ])
    func aBrokenMessageIsRefused(original: String, broken: String) {
        let body = Self.good.replacingOccurrences(of: original, with: broken)
        #expect(body != Self.good)
        guard case .failure = FCMMessageCheck.parse(Data(body.utf8)) else {
            Issue.record("accepted: \(body)")
            return
        }
    }
}
