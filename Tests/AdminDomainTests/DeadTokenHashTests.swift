import AdminDomain
import Testing

@Suite(.timeLimit(.minutes(20))) struct DeadTokenHash {
    /// The FIPS 180-2 example, and an empty token.
    @Test func theHashIsSHA256InLowerCaseHex() {
        #expect(DeadTokens.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(DeadTokens.hash("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
