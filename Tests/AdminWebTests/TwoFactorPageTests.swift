import AdminDomain
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import AdminWeb

/// The second step of signing in, as a browser meets it.
@Suite(.timeLimit(.minutes(20))) struct SecondFactorSignIn {
    /// Cookie pairs from every Set-Cookie of a response, by name.
    static func cookies(_ response: TestResponse) -> [String: String] {
        var result: [String: String] = [:]
        for field in response.headers[fields: .setCookie] {
            let pair = field.value.prefix { $0 != ";" }
            result[String(pair.prefix { $0 != "=" })] = String(pair)
        }
        return result
    }

    @Test func anAdminGivesThePasswordThenACodeAndReturnsToThePageAskedFor() async throws {
        let panel = try await TestPanel(areas: [.dashboard])
        defer { panel.remove() }
        try await panel.test { client in
            let password = try await client.postLogin([
                ("email", TestPanel.email), ("password", TestPanel.password), ("next", "/audit"),
            ])
            #expect(password.status == .seeOther)
            #expect(password.headers[.location] == "/login/code?next=/audit")
            let set = Self.cookies(password)
            #expect(set["panel_session"] == nil, "no session before the code")
            let challenge = try #require(set["panel_code"])
            #expect(password.headers[.setCookie]?.contains("Max-Age=300") == true)

            let form = try await client.loginForm()
            let page = try await client.get("/login/code?next=/audit", cookie: "\(form.cookie); \(challenge)")
            #expect(page.status == .ok)
            #expect(page.text.contains("autocomplete=\"one-time-code\""))
            #expect(page.text.contains("name=\"next\" value=\"/audit\""))

            let wrong = try await client.postForm(
                "/login/code", [("code", "000000"), ("_csrf", form.token)],
                cookie: "\(form.cookie); \(challenge)")
            #expect(wrong.status == .unauthorized)
            #expect(wrong.text.contains("That code is not right. 4 tries left."))

            let code = try await panel.currentCode(email: TestPanel.email)
            let right = try await client.postForm(
                "/login/code", [("code", code), ("next", "/audit"), ("_csrf", form.token)],
                cookie: "\(form.cookie); \(challenge)")
            #expect(right.status == .seeOther)
            #expect(right.headers[.location] == "/audit")
            let session = try #require(Self.cookies(right)["panel_session"])
            #expect(
                right.headers[fields: .setCookie].contains {
                    $0.value.hasPrefix("panel_code=;") && $0.value.contains("Max-Age=0")
                })
            #expect(try await client.get("/audit", cookie: session).status == .ok)

            // The same code again, even after a right password, is a replay.
            let again = try await client.postLogin([("email", TestPanel.email), ("password", TestPanel.password)])
            let replay = try await client.postForm(
                "/login/code", [("code", code), ("_csrf", form.token)],
                cookie: "\(form.cookie); \(try #require(Self.cookies(again)["panel_code"]))")
            #expect(replay.status == .unauthorized)
        }
        let signIns = try await panel.areas.database.read { db in
            try String.fetchAll(db, sql: "SELECT detail FROM panel_audit_log WHERE action = 'sign_in'")
        }
        #expect(signIns == ["password and authenticator code"])
    }

    @Test func withoutALiveChallengeTheCodePageSendsBackToThePassword() async throws {
        let panel = try await TestPanel(areas: [.dashboard])
        defer { panel.remove() }
        try await panel.test { client in
            #expect(try await client.get("/login/code").headers[.location] == "/login")
            let forged = "panel_code=" + SecureToken.random()
            #expect(try await client.get("/login/code", cookie: forged).headers[.location] == "/login")
            let form = try await client.loginForm()
            let post = try await client.postForm(
                "/login/code", [("code", "123456"), ("_csrf", form.token)],
                cookie: "\(form.cookie); \(forged)")
            #expect(post.status == .unauthorized)
            #expect(post.text.contains("That sign-in has ended. Enter your password again."))
            let noToken = try await client.postForm("/login/code", [("code", "123456")], cookie: forged)
            #expect(noToken.status == .forbidden, "the code form is CSRF-checked like every POST")
        }
    }

    @Test func aRecoveryCodeSignsInOnceAndIsAudited() async throws {
        let panel = try await TestPanel(areas: [.dashboard])
        defer { panel.remove() }
        let adminID = try #require(try await panel.areas.auth.admins.find(email: TestPanel.email)?.id)
        let codes = try await panel.areas.auth.account.newRecoveryCodes(
            StaffIdentity(adminID: adminID, email: TestPanel.email, role: .admin), from: nil)
        try await panel.test { client in
            for expected in [HTTPResponse.Status.seeOther, .unauthorized] {
                let password = try await client.postLogin([
                    ("email", TestPanel.email), ("password", TestPanel.password),
                ])
                let form = try await client.loginForm()
                let response = try await client.postForm(
                    "/login/code", [("code", codes[3]), ("_csrf", form.token)],
                    cookie: "\(form.cookie); \(try #require(Self.cookies(password)["panel_code"]))")
                #expect(response.status == expected)
            }
        }
        let rows = try await panel.areas.database.read { db in
            try String.fetchAll(
                db,
                sql:
                    "SELECT action || ':' || COALESCE(detail, '') FROM panel_audit_log "
                    + "WHERE action IN ('recovery_code_used', 'two_factor_failed') ORDER BY id"
            )
        }
        #expect(rows == ["recovery_code_used:password and recovery code (9 left)", "two_factor_failed:"])
    }
}

/// Setting up, using and ending one's own second factor.
@Suite(.timeLimit(.minutes(20))) struct TwoFactorEnrolmentPages {
    @Test func anAdminWithoutASecondFactorReachesOnlyEnrolmentThenEnrolsWithTheQRCode() async throws {
        let panel = try await TestPanel(areas: [.dashboard])
        defer { panel.remove() }
        let email = try await panel.addStaff("second.admin@example.com", role: .admin)
        try await panel.test { client in
            let session = try await panel.signIn(client, email: email)
            for path in ["/", "/audit", "/admins", "/account/sessions"] {
                let response = try await client.get(path, cookie: session)
                #expect(response.status == .seeOther && response.headers[.location] == "/account/two-factor", "\(path)")
            }
            // Looking makes nothing: the key is made by the button's POST.
            let before = try await client.get("/account/two-factor", cookie: session)
            #expect(before.status == .ok)
            #expect(before.text.contains("Your role needs two-factor sign-in."))
            #expect(!before.text.contains("<svg viewBox=") && before.text.contains("Set up two-factor"))
            let early = try await client.postSigned(
                "/account/two-factor/confirm", [("code", "123456"), ("password", TestPanel.password)],
                session: session)
            #expect(early.status == .conflict)
            let begun = try await client.postSigned("/account/two-factor/begin", session: session)
            #expect(begun.headers[.location] == "/account/two-factor")
            let page = try await client.get("/account/two-factor", cookie: session)
            #expect(page.text.contains("<svg viewBox="))
            #expect(
                page.text.contains("href=\"otpauth://totp/"),
                "a phone with the app enrols without scanning its own screen")
            let shown = try #require(page.text.firstMatch(of: /<code class="secret">([A-Z2-7 ]+)<\/code>/)).1
            let secret = try #require(
                try await panel.areas.database.read { db in
                    try String.fetchOne(
                        db,
                        sql:
                            "SELECT secret FROM panel_two_factor t JOIN panel_admins a ON a.id = t.admin_id "
                            + "WHERE a.email = ?",
                        arguments: [email])
                })
            #expect(String(shown).replacingOccurrences(of: " ", with: "") == TOTPCode.displayedSecret(secret))

            let code = TOTPCode.code(secret: secret, step: TOTPCode.step(at: Date()))
            for fields in [
                [("code", "12345"), ("password", TestPanel.password)], [("code", code)],
                [("code", code), ("password", "not it at all")],
            ] {
                let wrong = try await client.postSigned("/account/two-factor/confirm", fields, session: session)
                #expect(wrong.status == .unprocessableContent, "\(fields)")
            }
            let posted = try await client.postSigned(
                "/account/two-factor/confirm", [("code", code), ("password", TestPanel.password)],
                session: session)
            let done = try await client.follow(posted, cookie: session)
            #expect(done.status == .ok)
            #expect(done.text.contains("inputmode=\"numeric\""), "code fields ask phones for the number keyboard")
            #expect(
                done.text.contains("data-copy") && done.text.contains("data-download")
                    && done.text.contains("I have saved them: continue"))
            #expect(done.text.contains("Your recovery codes"))
            #expect(done.text.matches(of: /<li>[0-9a-z]{6}-[0-9a-z]{6}-[0-9a-z]{6}-[0-9a-z]{6}<\/li>/).count == 10)
            // More reach, new token: the one from before enrolment is dead.
            let rotated = try #require(SecondFactorSignIn.cookies(posted)["panel_session"])
            #expect(rotated != session)
            #expect(try await client.get("/", cookie: session).headers[.location] == "/login?ended=1")
            #expect(try await client.get("/", cookie: rotated).status == .ok)
        }
        let actions = try await panel.areas.database.read { db in
            try String.fetchAll(
                db, sql: "SELECT action FROM panel_audit_log WHERE action LIKE 'two_factor%' ORDER BY id")
        }
        #expect(actions == ["two_factor_enabled"])
    }

    @Test func theFlagRequiresASecondFactorOfEveryRole() async throws {
        let panel = try await TestPanel(areas: [.dashboard], twoFactorPolicy: TwoFactorPolicy(requiredForAll: true))
        defer { panel.remove() }
        let email = try await panel.addStaff()
        try await panel.test { client in
            let session = try await panel.signIn(client, email: email)
            #expect(try await client.get("/", cookie: session).headers[.location] == "/account/two-factor")
        }
        let optional = try await TestPanel(areas: [.dashboard])
        defer { optional.remove() }
        try await optional.addStaff()
        try await optional.test { client in
            let session = try await optional.signIn(client, email: email)
            #expect(try await client.get("/", cookie: session).status == .ok)
        }
    }

    @Test func supportMayTurnItOffWithACodeButAnAdminMayNot() async throws {
        let panel = try await TestPanel(areas: [.dashboard])
        defer { panel.remove() }
        let email = try await panel.addStaff()
        let id = try #require(try await panel.areas.auth.admins.find(email: email)?.id)
        let secret = try await panel.areas.auth.signIn.twoFactor.beginEnrolment(adminID: id)
        _ = try await panel.areas.auth.account.enableTwoFactor(
            StaffIdentity(adminID: id, email: email, role: .support),
            code: TOTPCode.code(secret: secret, step: TOTPCode.step(at: Date())),
            session: nil, from: nil)
        try await panel.test { client in
            let admin = try await panel.signIn(client)
            let refused = try await client.postSigned(
                "/account/two-factor/disable", [("code", "123456")], session: admin)
            #expect(refused.status == .conflict)
            #expect(!refused.text.contains("Turn off two-factor"))

            let support = try await panel.signIn(client, email: email)
            let wrong = try await client.postSigned(
                "/account/two-factor/disable", [("code", "000000")], session: support)
            #expect(wrong.status == .unprocessableContent)
            let codes = try await client.follow(
                try await client.postSigned(
                    "/account/two-factor/recovery-codes",
                    [("code", try await panel.currentCode(email: email))], session: support), cookie: support)
            #expect(codes.status == .ok && codes.text.contains("New recovery codes made"))
            #expect(codes.text.matches(of: /<li>[0-9a-z]{6}-[0-9a-z]{6}-[0-9a-z]{6}-[0-9a-z]{6}<\/li>/).count == 10)
            #expect(
                !(try await client.get("/account/two-factor", cookie: support)).text.contains("Your recovery codes"),
                "shown once")
            let off = try await client.follow(
                try await client.postSigned(
                    "/account/two-factor/disable",
                    [("code", try await panel.currentCode(email: email))], session: support), cookie: support)
            #expect(off.status == .ok)
            #expect(off.text.contains("Two-factor sign-in is off."))
        }
        let status = try await panel.areas.auth.signIn.twoFactor.status(adminID: id)
        #expect(!status.isEnabled && status.recoveryCodesLeft == 0)
        let actions = try await panel.areas.database.read { db in
            try String.fetchAll(
                db,
                sql:
                    "SELECT action FROM panel_audit_log WHERE action IN ('two_factor_failed', 'two_factor_disabled', "
                    + "'recovery_codes_regenerated') ORDER BY id"
            )
        }
        #expect(actions == ["two_factor_failed", "recovery_codes_regenerated", "two_factor_disabled"])
    }

    @Test func anAdminResetsALostSecondFactorAndThePersonIsSignedOut() async throws {
        let panel = try await TestPanel(areas: [.dashboard])
        defer { panel.remove() }
        let email = try await panel.addStaff("other.admin@example.com", role: .admin)
        let id = try #require(try await panel.areas.auth.admins.find(email: email)?.id)
        try await panel.areas.database.write { db in
            try db.execute(
                sql:
                    "INSERT INTO panel_two_factor (admin_id, secret, confirmed_at) VALUES (?, ?, "
                    + "'2026-01-01 00:00:00')",
                arguments: [id, TestPanel.totpSecret])
        }
        try await panel.test { client in
            let theirs = try await panel.signIn(client, email: email)
            let admin = try await panel.signIn(client)
            #expect(try await client.get("/admins", cookie: admin).text.contains("Reset two-factor"))
            let reset = try await client.postSigned("/admins/\(id)/reset-two-factor", session: admin)
            #expect(reset.headers[.location] == "/admins?notice=two-factor-reset")
            #expect(try await client.get("/", cookie: theirs).headers[.location] == "/login?ended=1")
        }
        #expect(try await panel.areas.auth.signIn.twoFactor.status(adminID: id).isEnabled == false)
        let target = try await panel.areas.database.read { db in
            try String.fetchOne(db, sql: "SELECT target FROM panel_audit_log WHERE action = 'two_factor_reset'")
        }
        #expect(target == "staff:\(id)")
    }
}

/// Changing one's own password.
@Suite(.timeLimit(.minutes(20))) struct OwnPassword {
    @Test func theCurrentPasswordThenANewOneTwiceEndsTheOtherSessionsAndRotatesThisOne() async throws {
        let panel = try await TestPanel(areas: [.dashboard])
        defer { panel.remove() }
        let email = try await panel.addStaff()
        let newPassword = "a brand new passphrase"
        try await panel.test { client in
            let other = try await panel.signIn(client, email: email)
            let current = try await panel.signIn(client, email: email)
            #expect(try await client.get("/account/password", cookie: current).status == .ok)
            for (fields, message) in [
                (
                    [("current", "wrong password!!"), ("password", newPassword), ("repeat", newPassword)],
                    "The current password is not right."
                ),
                (
                    [("current", TestPanel.password), ("password", newPassword), ("repeat", newPassword + "x")],
                    "The two new passwords differ."
                ),
                (
                    [("current", TestPanel.password), ("password", "short"), ("repeat", "short")],
                    "at least 12 characters"
                ),
                (
                    [("current", TestPanel.password), ("password", "1qaz2wsx3edc"), ("repeat", "1qaz2wsx3edc")],
                    "30,000 most used"
                ),
            ] {
                let refused = try await client.postSigned("/account/password", fields, session: current)
                #expect(refused.status == .unprocessableContent, "\(message)")
                #expect(refused.text.contains(message))
            }
            let posted = try await client.postSigned(
                "/account/password",
                [("current", TestPanel.password), ("password", newPassword), ("repeat", newPassword)], session: current)
            let changed = try await client.follow(posted, cookie: current)
            #expect(changed.status == .ok)
            #expect(changed.text.contains("Password changed. Your other sessions have ended."))
            let rotated = try #require(SecondFactorSignIn.cookies(posted)["panel_session"])
            #expect(
                try await client.get("/", cookie: other).headers[.location] == "/login?ended=1", "other sessions ended")
            #expect(
                try await client.get("/", cookie: current).headers[.location] == "/login?ended=1",
                "the old token is retired")
            #expect(try await client.get("/", cookie: rotated).status == .ok, "this browser stays signed in")
            await #expect(throws: TestSignInFailed.self) { try await panel.signIn(client, email: email) }
            #expect(
                try await client.get("/", cookie: try await panel.signIn(client, email: email, password: newPassword))
                    .status == .ok)
        }
        let actions = try await panel.areas.database.read { db in
            try String.fetchAll(
                db,
                sql:
                    "SELECT action FROM panel_audit_log WHERE action IN ('password_changed', 'sign_in_failed') "
                    + "ORDER BY id"
            )
        }
        #expect(actions == ["sign_in_failed", "password_changed", "sign_in_failed"])
    }
}

/// What admins see of locks, and lifting one.
@Suite(.timeLimit(.minutes(20))) struct SignInFailuresPage {
    @Test func locksAndFailuresAreListedEscapedAndAnAdminCanUnlock() async throws {
        let panel = try await TestPanel(areas: [.dashboard])
        defer { panel.remove() }
        let hostile = "<b>x</b>@example.com"
        for _ in 1...10 {
            try await panel.areas.auth.signIn.throttle.recordFailure(email: hostile, address: "10.1.2.3")
        }
        _ = try await panel.areas.auth.signIn.signIn(
            email: hostile, password: "nope nope nope", clientAddress: "10.9.9.9", userAgent: nil)
        try await panel.test { client in
            let admin = try await panel.signIn(client)
            let page = try await client.get("/admins/sign-in-failures", cookie: admin)
            #expect(page.status == .ok)
            #expect(!page.text.contains("<b>x</b>"))
            #expect(page.text.contains("&lt;b&gt;x&lt;/b&gt;@example.com from 10.1.2.3"))
            #expect(page.text.contains("Unlock"))
            #expect(page.text.contains("sign_in_failed"))
            let cleared = try await client.postSigned(
                "/admins/sign-in-failures/clear",
                [("kind", "pair"), ("email", hostile), ("address", "10.1.2.3")], session: admin)
            #expect(cleared.headers[.location] == "/admins/sign-in-failures?cleared=1")
            #expect(
                try await panel.areas.auth.signIn.throttle.current().contains {
                    $0.key.description == "pair:\(hostile)|10.1.2.3"
                } == false)
        }
        let unlocked = try await panel.areas.database.read { db in
            try String.fetchAll(db, sql: "SELECT target FROM panel_audit_log WHERE action = 'sign_in_unlocked'")
        }
        #expect(unlocked == ["pair:<b>x</b>@example.com|10.1.2.3"])
    }
}
