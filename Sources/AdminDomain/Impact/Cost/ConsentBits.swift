import GRDB

/// What a reading of one user's consent found, as the panel stores it (`consent_seen`,
/// `consent_after`, `panel_consent_readings.seen` and `.after`): bits for what allows a
/// campaign push, read by the same rules as the audience's (a malformed setting counts as
/// off, a missing settings row as the app's defaults, on). Negative values are not bits: the
/// account is gone, or the delivery never reached a phone.
public struct ConsentBits: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Consent to campaign pushes (`marketing_opt_in`).
    public static let marketing = ConsentBits(rawValue: 1)
    /// The app's push switch (`push_enabled`).
    public static let push = ConsentBits(rawValue: 2)
    /// At least one device of theirs with the permission granted and a token: reachable at all.
    public static let permission = ConsentBits(rawValue: 4)
    /// No settings row: the first two are the app's defaults.
    public static let noSettingsRow = ConsentBits(rawValue: 8)

    /// The account is suspended or deleted (or its row gone): counted apart, never as an opt-out.
    public static let accountGone = -1
    /// The delivery did not go out (failed, dead, cancelled): read, but not a recipient.
    public static let notARecipient = -2

    /// What a claim sees of a row it sends, or a freeze of a member it draws: the audience's
    /// rules let them through, so consent, push and a permitted device all hold; only whether
    /// the settings row exists is read (`s`, LEFT JOINed).
    static let reachableSQL = "(CASE WHEN s.user_id IS NULL THEN 15 ELSE 7 END)"

    /// The reading of the users in `:ids` (a JSON array) now: one row (uid, bits) each.
    static let readingSQL = """
        SELECT j.value AS uid,
               CASE WHEN u.id IS NULL OR u.status IS NOT 'active' THEN \(accountGone) ELSE
                 (CASE WHEN s.user_id IS NULL THEN 8 ELSE 0 END)
                 + (CASE WHEN s.user_id IS NULL OR COALESCE(CAST(s.marketing_opt_in AS INTEGER), 0) <> 0
                    THEN 1 ELSE 0 END)
                 + (CASE WHEN s.user_id IS NULL OR COALESCE(CAST(s.push_enabled AS INTEGER), 0) <> 0
                    THEN 2 ELSE 0 END)
                 + (CASE WHEN EXISTS (SELECT 1 FROM devices d INDEXED BY devices_user
                                      WHERE d.user_id = u.id AND d.push_permission = 'granted'
                                        AND d.push_token IS NOT NULL AND d.push_token <> '')
                    THEN 4 ELSE 0 END)
               END AS bits
        FROM json_each(:ids) j
        LEFT JOIN users u ON u.id = j.value
        LEFT JOIN notification_settings s ON s.user_id = u.id
        """

    /// What turned off between a reading at the start (`seen`) and one 72 hours later.
    static func turnedOff(seen: Int, after: Int) -> Turned {
        guard seen >= 0 else { return Turned() }
        guard after >= 0 else { return Turned(gone: true) }
        let (before, now) = (ConsentBits(rawValue: seen), ConsentBits(rawValue: after))
        return Turned(
            marketing: before.contains(.marketing) && !now.contains(.marketing),
            push: before.contains(.push) && !now.contains(.push),
            permission: before.contains(.permission) && !now.contains(.permission))
    }

    struct Turned: Equatable {
        var marketing = false, push = false, permission = false, gone = false
    }
}
