import Foundation
import HTTPTypes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The proxies whose word on the client's address is believed (`--trusted-proxy`). Only when
/// the TCP peer is one of them is the header the proxy writes read (`X-Forwarded-For` by
/// default, or `Forwarded` of RFC 7239 with `--forwarded-header forwarded`: only one, since
/// a proxy passes the other through as the client sent it), from the right: the first address
/// that is not itself a trusted proxy is the client. The leftmost entries are whatever the
/// client typed, so they are never taken on trust, and an address inside a trusted range
/// never becomes the client's.
public struct TrustedProxies: Sendable, Equatable {
    struct Range: Sendable, Equatable {
        let bytes: [UInt8]
        let prefix: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var left = prefix
            for (a, b) in zip(address, bytes) {
                if left <= 0 { return true }
                let mask: UInt8 = left >= 8 ? 0xFF : ~(0xFF >> UInt8(left))
                if a & mask != b & mask { return false }
                left -= 8
            }
            return true
        }
    }

    /// The header the trusted proxies write.
    public enum Header: String, Sendable, CaseIterable {
        case xForwardedFor = "x-forwarded-for"
        case forwarded
    }

    let ranges: [Range]
    public let header: Header

    public static let none = TrustedProxies(ranges: [], header: .xForwardedFor)

    init(ranges: [Range], header: Header) {
        self.ranges = ranges
        self.header = header
    }

    /// "127.0.0.1/32", "10.0.0.0/8", "::1/128", or an address alone (the whole of it).
    public init(_ cidrs: [String], header: Header = .xForwardedFor) throws(TrustedProxyError) {
        self.header = header
        var ranges: [Range] = []
        for text in cidrs.map({ $0.trimmingCharacters(in: .whitespaces) }) where !text.isEmpty {
            let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let bytes = Self.bytes(String(parts[0])) else {
                throw TrustedProxyError("\(text) is not an IP address or range such as 10.0.0.0/8")
            }
            let bits = bytes.count * 8
            var prefix = bits
            if parts.count == 2 {
                guard let value = Int(parts[1]), (0...bits).contains(value) else {
                    throw TrustedProxyError("\(text): the prefix length must be a number from 0 to \(bits)")
                }
                prefix = value
            }
            ranges.append(Range(bytes: bytes, prefix: prefix))
        }
        self.ranges = ranges
    }

    public var isEmpty: Bool { ranges.isEmpty }

    func contains(_ address: String) -> Bool {
        guard let bytes = Self.bytes(address) else { return false }
        return ranges.contains { $0.contains(bytes) }
    }

    /// The client's address for a request from `peer` with these headers.
    public func clientAddress(peer: String?, headers: HTTPFields) -> String? {
        guard let peer, contains(peer) else { return peer }
        let chain = (header == .forwarded ? Self.forwardedFor(headers) : Self.xForwardedFor(headers)) ?? []
        for hop in chain.reversed() {
            // An entry that is no address ("unknown", an obfuscated name) ends the walk: what
            // stands left of it cannot be checked, so the last trusted hop stands for the client.
            guard let bytes = Self.bytes(hop) else { return peer }
            if ranges.contains(where: { $0.contains(bytes) }) { continue }
            return Self.canonical(bytes) ?? hop
        }
        return peer
    }

    /// The scheme the client used, as a trusted proxy forwards it: `X-Forwarded-Proto` with
    /// `X-Forwarded-For`, `proto=` of `Forwarded` with it; the last one, which the proxy next
    /// to the panel wrote. Nil when the peer is no trusted proxy or sends none ("http" or
    /// "https" only).
    public func forwardedScheme(peer: String?, headers: HTTPFields) -> String? {
        guard let peer, contains(peer) else { return nil }
        var values: [String] = []
        if header == .forwarded {
            for element in headers[values: HTTPField.Name("Forwarded")!].joined(separator: ",").split(separator: ",") {
                for pair in element.split(separator: ";") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "proto"
                    else { continue }
                    values.append(
                        parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(
                            in: CharacterSet(charactersIn: "\"")))
                }
            }
        } else {
            values = headers[values: HTTPField.Name("X-Forwarded-Proto")!].joined(separator: ",")
                .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        guard let last = values.last?.lowercased(), last == "http" || last == "https" else { return nil }
        return last
    }

    /// The `for=` values of every `Forwarded` element, in order; nil without the header.
    static func forwardedFor(_ headers: HTTPFields) -> [String]? {
        let lines = headers[values: HTTPField.Name("Forwarded")!]
        guard !lines.isEmpty else { return nil }
        var found: [String] = []
        for element in lines.joined(separator: ",").split(separator: ",") {
            for pair in element.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "for" else {
                    continue
                }
                var value = parts[1].trimmingCharacters(in: .whitespaces)
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                    value = String(value.dropFirst().dropLast())
                }
                found.append(stripPort(value))
            }
        }
        return found
    }

    static func xForwardedFor(_ headers: HTTPFields) -> [String]? {
        let lines = headers[values: HTTPField.Name("X-Forwarded-For")!]
        guard !lines.isEmpty else { return nil }
        return lines.joined(separator: ",").split(separator: ",").map {
            stripPort($0.trimmingCharacters(in: .whitespaces))
        }
    }

    /// "[2001:db8::1]:4711" → "2001:db8::1"; "192.0.2.1:80" → "192.0.2.1".
    static func stripPort(_ value: String) -> String {
        if value.hasPrefix("["), let close = value.firstIndex(of: "]") {
            return String(value[value.index(after: value.startIndex)..<close])
        }
        if value.filter({ $0 == ":" }).count == 1, let colon = value.firstIndex(of: ":") {
            return String(value[..<colon])
        }
        return value
    }

    /// The address's bytes (4 or 16), or nil when it is none. An IPv4 address mapped into
    /// IPv6 (`::ffff:127.0.0.1`, as a dual-stack socket reports a v4 peer) is its 4 bytes.
    static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            let bytes = withUnsafeBytes(of: &v6) { Array($0) }
            if bytes.prefix(10).allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                return Array(bytes.suffix(4))
            }
            return bytes
        }
        return nil
    }

    /// An address written the usual way (lower case, shortest IPv6), or nil when it is none:
    /// the same client has one key however it was typed.
    public static func canonicalAddress(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: CharacterSet(charactersIn: "[] "))
        return bytes(trimmed).flatMap(canonical)
    }

    /// The address written the usual way, so that one client has one key however it was written.
    static func canonical(_ bytes: [UInt8]) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let ok =
            bytes.withUnsafeBytes { raw in inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count)) } != nil
        guard ok else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

public struct TrustedProxyError: Error, CustomStringConvertible, Equatable {
    public let description: String
    init(_ description: String) { self.description = description }
}
