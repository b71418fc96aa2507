import HTTPTypes

/// The headers every response the panel writes carries, in one list: the router's
/// middleware adds them to pages, errors and static files, and `SecurityHeadersHandler` to
/// what is answered outside the router (a 400 for a request line too long to parse).
enum SecurityHeaders {
    static let contentSecurityPolicy =
        "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

    /// `tls`: served over TLS (the `--secure-cookies` setting), so browsers are told to keep
    /// to HTTPS. `cacheable`: a static file, which may be kept in a cache; nothing else may,
    /// since pages show personal data.
    static func add(to fields: inout HTTPFields, tls: Bool, cacheable: Bool) {
        fields[.contentSecurityPolicy] = contentSecurityPolicy
        fields[.contentTypeOptions] = "nosniff"
        fields[.referrerPolicy] = "same-origin"
        if tls {
            fields[.strictTransportSecurity] = "max-age=31536000; includeSubDomains"
        }
        if !cacheable {
            fields[.cacheControl] = "no-store"
        }
    }
}

extension HTTPField.Name {
    static let contentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
