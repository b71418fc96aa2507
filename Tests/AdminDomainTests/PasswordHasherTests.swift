import ConcurrencyLimits
import Foundation
import TestSupport
import Testing

@testable import AdminDomain

@Suite(.timeLimit(.minutes(20))) struct PasswordHashing {
    let hasher = PasswordHasher(parameters: fastScryptForTests)

    @Test func hashIsSelfDescribingAndSalted() async throws {
        let first = try await hasher.hash("correct horse battery staple")
        let second = try await hasher.hash("correct horse battery staple")
        #expect(first.hasPrefix("$scrypt$ln=4,r=8,p=1$"))
        #expect(first != second)
        #expect(first.split(separator: "$").count == 4)
    }

    @Test func rightPasswordMatchesAndWrongOneDoesNot() async throws {
        let stored = try await hasher.hash("correct horse battery staple")
        #expect(try await hasher.verify("correct horse battery staple", against: stored) == .match(needsRehash: false))
        #expect(try await hasher.verify("correct horse battery stapl", against: stored) == .mismatch)
        #expect(try await hasher.verify("", against: stored) == .mismatch)
    }

    @Test func longPasswordsAreNeverTruncated() async throws {
        let base = String(repeating: "a", count: 100)
        let stored = try await hasher.hash(base + "1")
        #expect(try await hasher.verify(base + "2", against: stored) == .mismatch)
    }

    @Test func equivalentUnicodeSpellingsMatch() async throws {
        let stored = try await hasher.hash("caf\u{E9} \u{FB01}ne password")  // é precomposed, "ﬁ" ligature
        #expect(try await hasher.verify("cafe\u{301} fine password", against: stored) == .match(needsRehash: false))
    }

    @Test func olderParametersAskForARehash() async throws {
        let old = try await PasswordHasher(parameters: ScryptParameters(logN: 3, r: 8, p: 1)).hash(
            "correct horse battery staple")
        #expect(try await hasher.verify("correct horse battery staple", against: old) == .match(needsRehash: true))
    }

    @Test(arguments: ["", "plain", "$scrypt$ln=99,r=8,p=1$AAAA$BBBB", "$bcrypt$x$y$z", "$scrypt$ln=4,r=8,p=1$!!$!!"])
    func malformedStoredHashesNeverMatch(stored: String) async throws {
        #expect(try await hasher.verify("anything at all", against: stored) == .mismatch)
    }

    @Test func theDefaultIsOWASPsScryptSetting() {
        #expect(PasswordHasher().parameters == ScryptParameters(logN: 17, r: 8, p: 1))
    }
}

/// A limit of one, each task waiting a moment for a second one to come in: a limiter that let
/// two through would show it. (A limit of two cannot be told from three here: the blocking
/// work's queue runs at most one a core, and this machine has two.)
@Test func limiterNeverRunsMoreThanItsLimitAtOnce() async throws {
    let limiter = AsyncSemaphore(limit: 1)
    let gauge = Gauge()
    try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<6 {
            group.addTask {
                try await limiter.run {
                    try await BlockingWork.run {
                        gauge.enter()
                        let deadline = Date().addingTimeInterval(0.05)
                        while gauge.now < 2, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
                        gauge.leave()
                    }
                }
            }
        }
        try await group.waitForAll()
    }
    #expect(gauge.peak == 1)
}

private final class Gauge: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private(set) var peak = 0
    func enter() {
        lock.withLock {
            current += 1
            peak = max(peak, current)
        }
    }
    func leave() { lock.withLock { current -= 1 } }
    var now: Int { lock.withLock { current } }
}

/// Letters a to z over and over: long, and not one character repeated.
func alphabet(_ count: Int) -> String {
    String((0..<count).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
}

@Test(arguments: [("short", false), ("twelve chars", true), (alphabet(128), true), (alphabet(129), false)])
func passwordLengthPolicy(password: String, acceptable: Bool) async {
    #expect((await PasswordPolicy.problem(with: password) == nil) == acceptable)
}

@Test(arguments: ["1qaz2wsx3edc", "QWERTY123456", "qazwsxedcrfv", "123qweasdzxc"])
func commonPasswordsAreRefusedWhateverTheirLength(password: String) async {
    #expect(
        await PasswordPolicy.problem(with: password) == "that password is one of the 30,000 most used: choose another")
}

/// "password1234" was once accepted: a much-used password with digits and symbols added,
/// in any case, is refused too.
@Test(arguments: [
    "password1234", "Password1234", "PASSWORD!!!!2024", "!!sunshine2024!!", "iloveyou123456", "  dragon 12345 ",
    "111111111111", "aaaaaaaaaaaa", "abababababab",
])
func simpleVariantsOfCommonPasswordsAreRefused(password: String) async {
    #expect(await PasswordPolicy.problem(with: password) != nil, "\(password)")
}

/// ASVS 6.2.4: the most common passwords that meet the 12-character rule are refused too.
@Test(arguments: ["qwertyuiop123", "street123456789", "fordmustanggt500", "doomtroopers", "FordMustangGT500"])
func longLeakedPasswordsAreRefused(password: String) async {
    #expect(await PasswordPolicy.problem(with: password) != nil, "\(password)")
}

@Test func theLongListHoldsOverAMillionSortedEntries() {
    let list = PasswordPolicy.longCommonPasswords
    #expect((list?.count ?? 0) / 8 > 1_000_000)
    #expect(list.map { PasswordPolicy.contains($0, "doomtroopers") } == true)
    #expect(list.map { PasswordPolicy.contains($0, "a sentence nobody has ever typed, 7 crows") } == false)
}

@Test func theCommonListHasThirtyThousandEntries() async {
    #expect((PasswordPolicy.commonPasswords?.count ?? 0) >= 30_000)
    #expect(PasswordPolicy.commonPasswords?.contains("password") == true)
    #expect(await PasswordPolicy.problem(with: "correct horse battery staple") == nil)
}

/// ASVS 6.2.11: the panel's name and the account's own email are refused inside a password.
@Test(
    arguments: [
        ("my expiry-tracker password", nil, false),
        ("Admin Panel 2026 forever!", nil, false),
        ("jonathan's own secret phrase", "Jonathan@example.com", false),
        ("mail jonathan@example.com now", "jonathan@example.com", false),
        ("a long enough password", "jonathan@example.com", true),
        ("bob is my uncle, really", "bob@example.com", true),
    ] as [(String, String?, Bool)])
func contextWordsAreRefused(password: String, email: String?, acceptable: Bool) async {
    #expect((await PasswordPolicy.problem(with: password, email: email) == nil) == acceptable)
}
