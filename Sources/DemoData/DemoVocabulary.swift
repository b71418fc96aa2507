/// Words the demo generator draws from. Hostile values sit beside ordinary ones on
/// purpose: the panel must show markup, odd Unicode and broken data safely.
enum DemoVocabulary {
    static let firstNames = [
        "Maria", "João", "Ana", "Pedro", "Sofia", "Liam", "Olivia", "Noah", "Emma", "Lukas",
        "Hannah", "Yuki", "Haruto", "Aiko", "Wei", "Mei", "Priya", "Arjun", "Fatima", "Omar",
        "Zoë", "Chloé", "Søren", "Ingrid", "Mateo", "Lucía", "Amara", "Kwame", "Olga", "Dmitri",
        "Nguyễn", "Siobhán", "José", "François", "Björn", "Ayşe", "Łukasz", "Zanele", "Aroha", "Kai",
    ]
    static let lastNames = [
        "Silva", "Santos", "Smith", "Johnson", "Müller", "Schmidt", "Tanaka", "Suzuki", "Wang", "Li",
        "Sharma", "Patel", "Haddad", "Khan", "O'Brien", "García", "Martínez", "Dubois", "Rossi", "Novak",
        "Kowalski", "Nielsen", "Andersson", "Okafor", "Mensah", "Ivanova", "Yılmaz", "Van der Berg", "Ng", "Kim",
    ]
    /// Names in other scripts, used whole.
    static let scriptNames = [
        "山田 太郎", "김민준", "محمد علي", "דוד כהן", "Александр Петров", "Ελένη Παπαδοπούλου",
        "प्रिया शर्मा", "สมชาย ใจดี", "王芳", "Nguyễn Văn An",
    ]
    static let hostileNames = [
        "<script>alert('xss')</script>",
        "\"><img src=x onerror=alert(1)>",
        "Robert'); DROP TABLE users;--",
        "&amp; &lt;b&gt;not bold&lt;/b&gt;",
        "\u{202E}gnp.exe\u{202C} Mallory",
        "Z̷̢̛a̶̡͝l̸̨̛g̵̢͠o̷̡͘ ̵̢̛T̴̨͝e̷̢͠x̶̡͘t̸̢̛",
        "👩‍👩‍👧‍👦🍕🔥 family",
        "javascript:alert(1)",
        "' OR '1'='1",
        "50% off_sale\\path",
        String(repeating: "Long Name ", count: 40),
        "   ",
        "",
        "tab\there\nnewline",
        "{{template}} ${injection} %s %n",
    ]
    static let domains = ["example.com", "example.org", "mail.example.net", "Example.COM", "inbox.example.io"]
    /// Local parts that are legal (or at least stored by the backend) and awkward to search.
    static let hostileLocalParts = [
        "o'neil", "100%_real", "under_score", "back\\slash", "a+tag", "<b>bold</b>", "\"quoted\"", "ünïcödé",
        "UPPER.Case",
    ]

    static let validTimezones = [
        "UTC", "Europe/Lisbon", "Europe/London", "Europe/Berlin", "Europe/Madrid", "America/New_York",
        "America/Los_Angeles", "America/Sao_Paulo", "Asia/Tokyo", "Asia/Kolkata", "Asia/Shanghai",
        "Australia/Sydney", "Pacific/Auckland", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Africa/Lagos",
        "Asia/Kathmandu", "America/St_Johns", "Asia/Tehran", "Europe/Kyiv",
    ]
    static let invalidTimezones = [
        "Mars/Olympus_Mons", "", "UTC+25", "Europe/Lisbon ", "<b>tz</b>", "America/Nowhere", "GMT+99",
    ]
    static let locales = [
        "en-US", "en-GB", "pt-PT", "pt-BR", "de-DE", "ja-JP", "ar-SA", "hi-IN", "es-ES", "fr-FR", "xx-INVALID",
    ]

    static let foods: [(name: String, category: String)] = [
        ("Milk", "Dairy"), ("Greek yogurt", "Dairy"), ("Cheddar", "Dairy"), ("Butter", "Dairy"),
        ("Chicken breast", "Meat"), ("Minced beef", "Meat"), ("Chorizo", "Meat"),
        ("Salmon fillet", "Seafood"), ("Prawns", "Seafood"),
        ("Spinach", "Vegetables"), ("Carrots", "Vegetables"), ("Broccoli", "Vegetables"), ("Tomatoes", "Vegetables"),
        ("Bananas", "Fruits"), ("Strawberries", "Fruits"), ("Apples", "Fruits"), ("Avocado", "Fruits"),
        ("Sourdough bread", "Grains"), ("Rice", "Grains"), ("Pasta", "Grains"), ("Oats", "Grains"),
        ("Orange juice", "Beverages"), ("Oat milk", "Beverages"), ("Kombucha", "Beverages"),
        ("Ketchup", "Condiments"), ("Mayonnaise", "Condiments"), ("Pesto", "Condiments"),
        ("Frozen peas", "Frozen"), ("Ice cream", "Frozen"), ("Frozen pizza", "Frozen"),
        ("Tofu", "Other"), ("Eggs", "Other"), ("Hummus", "Other"),
        ("味噌", "Condiments"), ("Pão de Queijo", "Frozen"), ("Crème fraîche", "Dairy"),
        ("<img src=x onerror=alert('food')>", "Other"), ("Snacks 🍿", "Snacks 🍿"),
    ]
    static let storages = ["Refrigerator", "Freezer", "Pantry", "Counter"]
    static let quantities = ["1", "2", "3", "500 g", "1 kg", "2 liters", "a handful", "½ pack", "12", "1 l"]

    static let documentTypes: [(type: String, title: String)] = [
        ("passport", "Passport"), ("visa", "Work visa"), ("drivers_license", "Driving licence"),
        ("id_card", "National ID"), ("insurance", "Car insurance"), ("membership", "Library card"),
    ]
    static let customTypes = ["Gym Membership", "Warranty", "<i>Lease</i>", "Vaccination 💉", "Parking permit"]

    static let eventKinds = [
        "login", "item_added", "item_added", "item_added", "item_updated", "item_consumed", "item_deleted",
        "document_added", "document_updated", "settings_changed", "push_opened", "logout", "export",
    ]

    static let appVersions = ["3.2.0", "3.3.1", "3.4.0", "3.4.1", "3.5.0-beta.2"]
    static let iosVersions = ["iOS 16.7", "iOS 17.5", "iOS 18.1", "iOS 18.2"]
    static let androidVersions = ["Android 12", "Android 13", "Android 14", "Android 15"]
    static let currencies: [(code: String, monthly: Int, yearly: Int)] = [
        ("EUR", 299, 2499), ("USD", 299, 2999), ("GBP", 249, 2199), ("JPY", 400, 3800), ("BRL", 990, 8990),
    ]
}
