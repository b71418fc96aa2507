import AsyncHTTPClient
import NIOCore
import NIOSSL

/// The HTTP clients the providers are reached with: the system's trusted CAs, plus one extra
/// CA when `--push-ca-file` names one (a test or simulator server), and HTTP/2 where TLS
/// offers it. The caller shuts them down.
public enum PushHTTPClients {
    /// As many HTTP/1.1 connections as a client has sends in flight, so that none waits in
    /// the pool (a wait longer than the connect timeout fails it unsent). Over HTTP/2 one
    /// connection carries them all, and another opens when its streams run out.
    /// `connectTimeout`: for the TCP connection and the TLS handshake (a test on a loaded
    /// machine gives its debug build's handshake longer).
    public static func make(
        extraCAFile: String?, connectionsPerHost: Int = 128, connectTimeout: TimeAmount = .seconds(5)
    ) throws(PushConfigurationError) -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let extraCAFile {
            tls.additionalTrustRoots = [.certificates(try certificates(in: extraCAFile))]
        }
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls,
            redirectConfiguration: .disallow,
            timeout: .init(connect: connectTimeout),
            connectionPool: .init(
                idleTimeout: .seconds(300), concurrentHTTP1ConnectionsPerHostSoftLimit: connectionsPerHost),
            ignoreUncleanSSLShutdown: false)
        configuration.httpVersion = .automatic
        configuration.decompression = .disabled
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    static func certificates(in path: String) throws(PushConfigurationError) -> [NIOSSLCertificate] {
        guard let certificates = try? NIOSSLCertificate.fromPEMFile(path), !certificates.isEmpty else {
            throw PushConfigurationError("--push-ca-file \"\(path)\" is not a file of PEM certificates")
        }
        return certificates
    }
}
