/// A stored key of the app's vocabulary with the words staff read for it: one table, so a
/// chart, a table and a form all say "Driver's licence" for `drivers_license`.
public protocol LabelledTerm: VocabularyTerm {
    var label: String { get }
}

extension LabelledTerm {
    /// The label of a stored key; a key the panel does not know is shown as stored and said
    /// to be unknown, never given another term's label.
    public static func label(of stored: String) -> String {
        Self(rawValue: stored)?.label ?? "unknown (\(stored))"
    }
}

extension DocumentType: LabelledTerm {
    public var label: String {
        switch self {
        case .passport: "Passport"
        case .visa: "Visa"
        case .driversLicense: "Driver's licence"
        case .idCard: "ID card"
        case .insurance: "Insurance"
        case .membership: "Membership"
        case .custom: "Custom type"
        }
    }
}

extension FoodSource: LabelledTerm {
    public var label: String {
        switch self {
        case .manual: "Typed in"
        case .barcode: "Barcode scan"
        case .photo: "Photo"
        }
    }
}

extension Platform: LabelledTerm {
    public var label: String {
        switch self {
        case .ios: "iOS"
        case .android: "Android"
        }
    }
}

extension PushProvider: LabelledTerm {
    public var label: String {
        switch self {
        case .fcm: "FCM"
        case .apns: "APNs"
        }
    }
}

extension Stored where Term: LabelledTerm {
    /// The term's words, or the stored text said to be unknown: as a table cell shows it.
    public var label: String {
        switch self {
        case .known(let term): term.label
        case .unknown(let text): "unknown (\(text))"
        }
    }
}

extension PushPermission: LabelledTerm {
    public var label: String {
        switch self {
        case .granted: "Allowed"
        case .denied: "Denied"
        case .unknown: "Not asked yet"
        }
    }
}
