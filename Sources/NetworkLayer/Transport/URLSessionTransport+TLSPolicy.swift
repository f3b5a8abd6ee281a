import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionTransport {
    /// Creates a transport over a session of its own, made from `configuration`, that honours `tlsPolicy`.
    ///
    /// On Apple platforms the session's delegate answers the server-trust challenge (anchors, then
    /// `SecTrustEvaluateWithError`, then the pins over the evaluated chain) and the client-certificate
    /// challenge (a PKCS#12 identity); the minimum version is the configuration's
    /// `tlsMinimumSupportedProtocolVersion`. A PEM client identity is refused there: a `SecIdentity`
    /// comes from PKCS#12.
    ///
    /// On Linux FoundationNetworking never asks a delegate about server trust or client
    /// certificates, so only ``TLSPolicy/default`` is honoured: any other policy is refused here.
    ///
    /// Make one and keep it, as a client keeps its session: the session holds its delegate until it is
    /// invalidated, which the transport never does.
    /// - Parameters:
    ///   - configuration: The session configuration; ``defaultConfiguration()`` by default.
    ///     It is copied, not changed.
    ///   - tlsPolicy: Whom TLS trusts and who the client is.
    /// - Throws: ``APIError/unsupportedTLSPolicy(_:)`` for a policy this platform's `URLSession` cannot
    ///   honour, naming `AsyncHTTPClientTransport` (package trait `AsyncHTTPClient`), which can;
    ///   ``APIError/invalidTLSPolicy(_:)`` for a PKCS#12 bundle that does not open.
    public init(
        configuration: URLSessionConfiguration = URLSessionTransport.defaultConfiguration(), tlsPolicy: TLSPolicy
    ) throws(APIError) {
        #if canImport(FoundationNetworking)
            if let refusal = Self.linuxRefusal(of: tlsPolicy) { throw refusal }
            self.init(session: Self.makeSession(configuration: configuration))
        #elseif canImport(Security)
            if tlsPolicy.isDefault {
                self.init(session: Self.makeSession(configuration: configuration))
                return
            }
            let delegate = try TLSChallengeHandler(policy: tlsPolicy)
            let copy = (configuration.copy() as? URLSessionConfiguration) ?? configuration
            switch tlsPolicy.minimumVersion {
            case .tls12?: copy.tlsMinimumSupportedProtocolVersion = .TLSv12
            case .tls13?: copy.tlsMinimumSupportedProtocolVersion = .TLSv13
            case nil: break
            }
            self.init(session: URLSession(configuration: copy, delegate: delegate, delegateQueue: nil))
        #else
            guard tlsPolicy.isDefault else {
                throw .unsupportedTLSPolicy("URLSession on this platform cannot honour a TLS policy; use AsyncHTTPClientTransport")
            }
            self.init(session: Self.makeSession(configuration: configuration))
        #endif
    }

    #if canImport(FoundationNetworking)
        /// The refusal of `policy` on Linux, naming each part FoundationNetworking cannot honour; `nil` for the default.
        static func linuxRefusal(of policy: TLSPolicy) -> APIError? {
            var parts: [String] = []
            switch policy.trustRoots {
            case .system: break
            case .systemAnd: parts.append("additional trust roots")
            case .only: parts.append("trust roots of its own")
            }
            if !policy.pins.isEmpty { parts.append("public-key pins") }
            if policy.clientIdentity != nil { parts.append("a client certificate") }
            if policy.minimumVersion != nil { parts.append("a minimum TLS version") }
            guard !parts.isEmpty else { return nil }
            return .unsupportedTLSPolicy(
                "URLSessionTransport on Linux cannot honour \(parts.joined(separator: ", ")): FoundationNetworking never asks "
                    + "a delegate about server trust or client certificates and reads only the system's trust store. "
                    + "AsyncHTTPClientTransport (package trait AsyncHTTPClient) honours every TLSPolicy")
        }
    #endif
}
