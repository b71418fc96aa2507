import ConcurrencyLimits
import Crypto
import Foundation
import _CryptoExtras

/// scrypt cost parameters: N = 2^logN, block size r, parallelism p.
public struct ScryptParameters: Sendable, Equatable {
    public var logN: Int
    public var r: Int
    public var p: Int

    public init(logN: Int, r: Int, p: Int) {
        self.logN = logN
        self.r = r
        self.p = p
    }

    /// OWASP's scrypt setting: 128 MiB and about 0.3 s per hash in a release build.
    public static let owasp = ScryptParameters(logN: 17, r: 8, p: 1)
}

public enum PasswordCheck: Sendable, Equatable {
    case mismatch
    /// `needsRehash`: the stored hash used older parameters than the current ones.
    case match(needsRehash: Bool)
}

/// Hashes passwords into one self-describing string:
/// `$scrypt$ln=17,r=8,p=1$<salt, base64>$<hash, base64>`.
public struct PasswordHasher: Sendable {
    public let parameters: ScryptParameters
    private let limiter: AsyncSemaphore

    static let saltBytes = 16
    static let hashBytes = 32

    public init(parameters: ScryptParameters = .owasp, maxConcurrentHashes: Int = 2) {
        self.parameters = parameters
        self.limiter = AsyncSemaphore(limit: maxConcurrentHashes)
    }

    public func hash(_ password: String) async throws -> String {
        var rng = SystemRandomNumberGenerator()
        let salt = (0..<Self.saltBytes).map { _ in UInt8.random(in: .min ... .max, using: &rng) }
        let parameters = self.parameters
        // Off the cooperative threads, at most `maxConcurrentHashes` at a time.
        let digest = try await limiter.run {
            try await BlockingWork.run { try Self.derive(password, salt: salt, parameters: parameters) }
        }
        return Self.encode(parameters: parameters, salt: salt, hash: digest)
    }

    /// A stored string that cannot be parsed never matches; it does not throw.
    public func verify(_ password: String, against stored: String) async throws -> PasswordCheck {
        guard let parsed = Self.decode(stored) else { return .mismatch }
        let digest = try await limiter.run {
            try await BlockingWork.run { try Self.derive(password, salt: parsed.salt, parameters: parsed.parameters) }
        }
        guard SecureToken.constantTimeEquals(digest, parsed.hash) else { return .mismatch }
        return .match(needsRehash: parsed.parameters != parameters)
    }

    /// NFKC first, so the same password typed on two keyboards hashes the same; never truncated.
    static func derive(_ password: String, salt: [UInt8], parameters: ScryptParameters) throws -> [UInt8] {
        let normalized = password.precomposedStringWithCompatibilityMapping
        let key = try KDF.Scrypt.deriveKey(
            from: Array(normalized.utf8), salt: salt, outputByteCount: hashBytes,
            rounds: 1 << parameters.logN, blockSize: parameters.r, parallelism: parameters.p)
        return key.withUnsafeBytes { Array($0) }
    }

    static func encode(parameters: ScryptParameters, salt: [UInt8], hash: [UInt8]) -> String {
        "$scrypt$ln=\(parameters.logN),r=\(parameters.r),p=\(parameters.p)$"
            + Data(salt).base64EncodedString() + "$" + Data(hash).base64EncodedString()
    }

    static func decode(_ stored: String) -> (parameters: ScryptParameters, salt: [UInt8], hash: [UInt8])? {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, parts[1] == "scrypt" else { return nil }
        var values: [Substring: Int] = [:]
        for pair in parts[2].split(separator: ",") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            guard kv.count == 2, let n = Int(kv[1]) else { return nil }
            values[kv[0]] = n
        }
        guard let logN = values["ln"], let r = values["r"], let p = values["p"],
            (1...24).contains(logN), (1...32).contains(r), (1...16).contains(p),
            let salt = Data(base64Encoded: String(parts[3])),
            let hash = Data(base64Encoded: String(parts[4])), hash.count == hashBytes
        else { return nil }
        return (ScryptParameters(logN: logN, r: r, p: p), Array(salt), Array(hash))
    }
}
