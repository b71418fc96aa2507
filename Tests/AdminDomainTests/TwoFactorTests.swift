import Foundation
import GRDB
import TestSupport
import Testing

@testable import AdminDomain

/// RFC 6238 appendix B: the reference keys and times, eight digits.
@Suite(.timeLimit(.minutes(20))) struct TOTPTestVectors {
    static let sha1Key = "12345678901234567890"
    static let sha256Key = "12345678901234567890123456789012"
    static let sha512Key = "1234567890123456789012345678901234567890123456789012345678901234"

    @Test(arguments: [
        (59.0, "94287082", "46119246", "90693936"),
        (1_111_111_109, "07081804", "68084774", "25091201"),
        (1_111_111_111, "14050471", "67062674", "99943326"),
        (1_234_567_890, "89005924", "91819424", "93441116"),
        (2_000_000_000, "69279037", "90698825", "38618901"),
        (20_000_000_000, "65353130", "77737706", "47863826"),
    ])
    func rfc6238(time: Double, sha1: String, sha256: String, sha512: String) {
        let step = TOTPCode.step(at: Date(timeIntervalSince1970: time))
        #expect(TOTPCode.code(secret: Self.sha1Key, step: step, digits: 8, hash: .sha1) == sha1)
        #expect(TOTPCode.code(secret: Self.sha256Key, step: step, digits: 8, hash: .sha256) == sha256)
        #expect(TOTPCode.code(secret: Self.sha512Key, step: step, digits: 8, hash: .sha512) == sha512)
    }

    /// The six-digit codes the panel uses are the last six digits of the same values.
    @Test func sixDigitCodesAndTheOneStepWindow() {
        let now = Date(timeIntervalSince1970: 1_111_111_111)
        let step = TOTPCode.step(at: now)
        #expect(TOTPCode.code(secret: Self.sha1Key, step: step) == "050471")
        for offset in [-1, 0, 1] as [Int64] {
            #expect(
                TOTPCode.matchingStep(
                    TOTPCode.code(secret: Self.sha1Key, step: step + offset), secret: Self.sha1Key, now: now)
                    == step + offset)
        }
        for offset in [-2, 2] as [Int64] {
            #expect(
                TOTPCode.matchingStep(
                    TOTPCode.code(secret: Self.sha1Key, step: step + offset), secret: Self.sha1Key, now: now) == nil)
        }
        for typed in ["", "05047", "0504711", "05047a", "０５０４７１", " 050 471 "] {
            let expected: Int64? = typed == " 050 471 " ? step : nil
            #expect(TOTPCode.matchingStep(typed, secret: Self.sha1Key, now: now) == expected, "\(typed)")
        }
    }

    @Test func keysAreShownInBase32AndCarriedInTheProvisioningURI() {
        #expect(Base32.encode(Array("foobar".utf8)) == "MZXW6YTBOI")
        #expect(Base32.encode(Array("12345678901234567890".utf8)) == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
        let secret = TOTPCode.newSecret()
        #expect(secret.count == 32 && secret.allSatisfy { Base32.alphabet.contains($0) })
        let uri = TOTPCode.provisioningURI(secret: secret, account: "a&b@example.com", issuer: "Expiry Tracker Admin")
        #expect(
            uri.hasPrefix(
                "otpauth://totp/Expiry%20Tracker%20Admin%3Aa%26b@example.com"
                    + "?secret=\(TOTPCode.displayedSecret(secret))&"
            ))
        #expect(uri.hasSuffix("&issuer=Expiry%20Tracker%20Admin&algorithm=SHA1&digits=6&period=30"))
    }
}

@Suite(.timeLimit(.minutes(20))) struct TwoFactorEnrolmentAndCodes {
    let temp: TemporaryDatabase
    let database: PanelDatabase
    let service: SignInService
    let adminID: Int64

    init() async throws {
        temp = try await TemporaryDatabase.seeded(users: 10)
        database = try await PanelDatabase.open(path: temp.path)
        service = SignInService(
            database: database, hasher: PasswordHasher(parameters: fastScryptForTests), sessionPolicy: SessionPolicy())
        adminID = try await service.admins.create(
            email: "root@example.com", password: "a long enough password", role: .admin
        ).id!
    }

    var store: TwoFactorStore { service.twoFactor }
    var account: AccountSecurity {
        AccountSecurity(database: database, hasher: PasswordHasher(parameters: fastScryptForTests))
    }
    var identity: StaffIdentity { StaffIdentity(adminID: adminID, email: "root@example.com", role: .admin) }

    /// Enrols at `now` and returns the key and the recovery codes.
    func enrol(now: Date) async throws -> (secret: String, codes: [String]) {
        #expect(try await store.pendingSecret(adminID: adminID) == nil, "nothing until enrolment begins")
        let secret = try await store.beginEnrolment(adminID: adminID)
        #expect(
            try await store.beginEnrolment(adminID: adminID) == secret,
            "beginning again keeps the key the phone scanned")
        #expect(try await store.pendingSecret(adminID: adminID) == secret)
        #expect(
            try await account.enableTwoFactor(
                identity, code: "000000", session: nil, from: nil,
                now: now.addingTimeInterval(-3600)) == nil)
        let codes = try #require(
            try await account.enableTwoFactor(
                identity, code: TOTPCode.code(secret: secret, step: TOTPCode.step(at: now)), session: nil, from: nil,
                now: now)
        ).recoveryCodes
        return (secret, codes)
    }

    @Test func enrolmentNeedsARightCodeAndGivesTenRecoveryCodesStoredHashed() async throws {
        defer { temp.remove() }
        let now = Date()
        #expect(try await store.status(adminID: adminID).isEnabled == false)
        let (_, codes) = try await enrol(now: now)
        #expect(codes.count == 10 && Set(codes).count == 10)
        #expect(codes.allSatisfy { $0.count == 27 && $0.split(separator: "-").count == 4 })
        let status = try await store.status(adminID: adminID)
        #expect(status.isEnabled && status.recoveryCodesLeft == 10)
        await #expect(throws: TwoFactorError.alreadyEnabled) { try await store.beginEnrolment(adminID: adminID) }
        let stored = try await database.read { db in
            try String.fetchAll(db, sql: "SELECT code_hash FROM panel_recovery_codes")
        }
        for code in codes {
            let plain = RecoveryCode.normalized(code)!
            #expect(!stored.contains { $0.contains(plain) })
        }
    }

    @Test func aCodeIsAcceptedOnceAndAnOlderOneNeverAfterANewer() async throws {
        defer { temp.remove() }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let (secret, _) = try await enrol(now: now.addingTimeInterval(-120))
        let step = TOTPCode.step(at: now)
        let current = TOTPCode.code(secret: secret, step: step)
        #expect(try await store.verify(adminID: adminID, code: current, now: now) == .authenticatorCode)
        #expect(try await store.verify(adminID: adminID, code: current, now: now) == nil, "replayed")
        #expect(
            try await store.verify(adminID: adminID, code: TOTPCode.code(secret: secret, step: step - 1), now: now)
                == nil,
            "older than one already used")
        #expect(
            try await store.verify(adminID: adminID, code: TOTPCode.code(secret: secret, step: step + 1), now: now)
                == .authenticatorCode)
    }

    @Test func eachRecoveryCodeWorksOnceAndNewCodesEndTheOld() async throws {
        defer { temp.remove() }
        let (_, codes) = try await enrol(now: Date())
        // Typed loosely: capitals, spaces instead of dashes.
        let loose = codes[0].uppercased().replacingOccurrences(of: "-", with: " ")
        #expect(try await store.verify(adminID: adminID, code: loose) == .recoveryCode(left: 9))
        #expect(try await store.verify(adminID: adminID, code: codes[0]) == nil, "a used code is spent")
        #expect(try await store.verify(adminID: adminID, code: codes[1]) == .recoveryCode(left: 8))
        let fresh = try await account.newRecoveryCodes(identity, from: nil)
        #expect(try await store.verify(adminID: adminID, code: codes[2]) == nil, "the old set is gone")
        #expect(try await store.verify(adminID: adminID, code: fresh[9]) == .recoveryCode(left: 9))
        #expect(try await store.verify(adminID: adminID, code: "not-a-code") == nil)
    }

    @Test func signingInTakesThePasswordThenACode() async throws {
        defer { temp.remove() }
        let now = Date()
        let (secret, codes) = try await enrol(now: now.addingTimeInterval(-90))
        // What the sign-in writes, after enrolment's own row.
        let enrolled = try await database.read { db in
            try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM panel_audit_log") ?? 0
        }
        let first = try await service.signIn(
            email: "root@example.com", password: "a long enough password",
            clientAddress: "10.0.0.9", userAgent: nil, now: now)
        guard case .needsSecondFactor(let challenge) = first else {
            Issue.record("\(first)")
            return
        }
        for left in [4, 3, 2] {
            #expect(
                try await service.completeSecondFactor(
                    challenge: challenge, code: "123456", clientAddress: "10.0.0.9",
                    userAgent: nil, now: now) == .rejected(triesLeft: left))
        }
        let code = TOTPCode.code(secret: secret, step: TOTPCode.step(at: now))
        let done = try await service.completeSecondFactor(
            challenge: challenge, code: code, clientAddress: "10.0.0.9",
            userAgent: nil, now: now.addingTimeInterval(8))
        guard case .signedIn(let token, let identity, let proof) = done else {
            Issue.record("\(done)")
            return
        }
        #expect(proof == .authenticatorCode && identity.hasTwoFactor)
        #expect(try await service.sessions.identity(forToken: token)?.email == "root@example.com")
        #expect(
            try await service.completeSecondFactor(
                challenge: challenge, code: codes[0], clientAddress: nil, userAgent: nil) == .expired,
            "a challenge signs in once")
        let actions = try await database.read { db in
            try String.fetchAll(
                db, sql: "SELECT action || ':' || COALESCE(detail, '') FROM panel_audit_log WHERE id > ? ORDER BY id",
                arguments: [enrolled])
        }
        #expect(
            actions == [
                "two_factor_failed:", "two_factor_failed:", "two_factor_failed:",
                "sign_in:password and authenticator code",
            ])
    }

    @Test func fiveWrongCodesEndTheChallengeAndTheFailuresCountTowardTheLock() async throws {
        defer { temp.remove() }
        _ = try await enrol(now: Date().addingTimeInterval(-90))
        var now = Date()
        var results: [SecondFactorResult] = []
        guard
            case .needsSecondFactor(let challenge) = try await service.signIn(
                email: "root@example.com", password: "a long enough password", clientAddress: "10.0.0.7",
                userAgent: nil, now: now)
        else {
            Issue.record("no challenge")
            return
        }
        for _ in 1...6 {
            now = now.addingTimeInterval(30)  // past each throttle delay, within the challenge's five minutes
            results.append(
                try await service.completeSecondFactor(
                    challenge: challenge, code: "999999", clientAddress: "10.0.0.7",
                    userAgent: nil, now: now))
        }
        #expect(
            results == [
                .rejected(triesLeft: 4), .rejected(triesLeft: 3), .rejected(triesLeft: 2),
                .rejected(triesLeft: 1), .rejected(triesLeft: 0), .expired,
            ])
        // The right password does not wipe the count the wrong codes left.
        let counts = try await service.throttle.current(now: now)
        #expect(counts.first { $0.key.description == "pair:root@example.com|10.0.0.7" }?.failures == 5)
    }
}
