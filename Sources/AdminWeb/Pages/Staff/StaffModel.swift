import AdminDomain

struct StaffModel: PageModel {
    /// What the page says above the list, on this response only.
    struct Message {
        var notice: String?
        var error: String?
        /// After creating an account or resetting a password: shown once, on this response only.
        var oneTimePassword: (email: String, password: String)?
        /// The add form as typed, when it was refused: shown again to correct.
        var typedEmail = ""
        var typedRole: Role?
        /// The add form's field the error is about (`StaffView.emailField`, `roleField`): marked
        /// there and linked from the error.
        var errorField: String?
    }

    /// The two orders the list offers, each both ways: by email (its unique index) and by
    /// creation (the primary key).
    enum SortKey: String, CaseIterable, Sendable {
        case email, created
    }

    let accounts: [StaffAccount]
    var message = Message()
    /// Which roles need a second factor: an account of one without it shows "not set up".
    var twoFactorPolicy = TwoFactorPolicy()
    var sort = SortKey.email
    var order = SortOrder.ascending

    static func load(_ staff: StaffAdministration, _ message: Message) async throws -> StaffModel {
        try await load(staff, message, sort: .email, order: .ascending)
    }

    static func load(_ staff: StaffAdministration, _ message: Message, sort: SortKey, order: SortOrder) async throws
        -> StaffModel
    {
        StaffModel(
            accounts: try await staff.accounts(byCreation: sort == .created, descending: order == .descending),
            message: message,
            sort: sort, order: order)
    }
}
