#if canImport(Security) && !canImport(FoundationNetworking)
    import Foundation
    import Security

    /// The session delegate of a ``URLSessionTransport`` made with a ``TLSPolicy`` (Apple platforms):
    /// answers the server-trust and client-certificate challenges by the policy.
    ///
    /// A refused chain is named by its cause (``APIError/requestFailed(_:)`` with the certificate's
    /// `URLError` code, or ``APIError/certificatePinMismatch(host:seen:)``), never as the
    /// cancellation URLSession reports: the refusal is kept for the task, and ``SessionTaskHandler``
    /// takes it when the task ends. Not run by CI, which has no Apple machine.
    final class TLSChallengeHandler: NSObject, URLSessionTaskDelegate, Sendable {
        private let policy: TLSPolicy

        /// Refusals by task, until the task ends.
        private static let refusals = Locked<[ObjectIdentifier: APIError]>([:])

        /// A handler for `policy`; throws when its client identity cannot be used here.
        init(policy: TLSPolicy) throws(APIError) {
            self.policy = policy
            switch policy.clientIdentity?.storage {
            case .pem?:
                throw .unsupportedTLSPolicy(
                    "a PEM client identity: on Apple platforms URLSession takes a client certificate from PKCS#12 "
                        + "(TLSPolicy.ClientIdentity.pkcs12); AsyncHTTPClientTransport reads PEM")
            case .pkcs12(let data, let password)?:
                guard TLSChallengeHandler.identity(data, password: password) != nil else {
                    throw .invalidTLSPolicy("the PKCS#12 bundle does not open with its password, or holds no identity")
                }
            case nil: break
            }
        }

        /// The refusal of `task`'s server, if any, removed.
        static func refusal(of task: URLSessionTask) -> APIError? {
            refusals.withLock { $0.removeValue(forKey: ObjectIdentifier(task)) }
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            let space = challenge.protectionSpace
            switch space.authenticationMethod {
            case NSURLAuthenticationMethodServerTrust:
                guard let trust = space.serverTrust else { return completionHandler(.performDefaultHandling, nil) }
                if let refusal = evaluate(trust, host: space.host) {
                    Self.refusals.withLock { $0[ObjectIdentifier(task)] = refusal }
                    return completionHandler(.cancelAuthenticationChallenge, nil)
                }
                completionHandler(.useCredential, URLCredential(trust: trust))
            case NSURLAuthenticationMethodClientCertificate:
                guard case .pkcs12(let data, let password)? = policy.clientIdentity?.storage,
                    let identity = Self.identity(data, password: password)
                else { return completionHandler(.performDefaultHandling, nil) }
                completionHandler(.useCredential, URLCredential(identity: identity, certificates: nil, persistence: .forSession))
            default:
                completionHandler(.performDefaultHandling, nil)
            }
        }

        /// Why `trust` is refused for `host`, or `nil`: the anchors set, the chain evaluated, then the pins checked.
        private func evaluate(_ trust: SecTrust, host: String) -> APIError? {
            switch policy.trustRoots {
            case .system: break
            case .systemAnd(let roots):
                SecTrustSetAnchorCertificates(trust, Self.certificates(roots) as CFArray)
                SecTrustSetAnchorCertificatesOnly(trust, false)
            case .only(let roots):
                SecTrustSetAnchorCertificates(trust, Self.certificates(roots) as CFArray)
                SecTrustSetAnchorCertificatesOnly(trust, true)
            }
            var error: CFError?
            guard SecTrustEvaluateWithError(trust, &error) else {
                let status = error.map { OSStatus(truncatingIfNeeded: CFErrorGetCode($0)) } ?? errSecNotTrusted
                let code: URLError.Code =
                    switch status {
                    case errSecCertificateExpired: .serverCertificateHasBadDate
                    case errSecCertificateNotValidYet: .serverCertificateNotYetValid
                    case errSecHostNameMismatch: .serverCertificateUntrusted
                    default: .serverCertificateHasUnknownRoot
                    }
                let words = error.map { CFErrorCopyDescription($0) as String } ?? "the certificate chain was not trusted"
                return .requestFailed(URLError(code, userInfo: [NSLocalizedDescriptionKey: words]))
            }
            let chain = ((SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? [])
                .compactMap { CertificateDER([UInt8](SecCertificateCopyData($0) as Data)) }
            if let seen = policy.mismatch(of: chain, against: policy.pinSets(for: host)) {
                return .certificatePinMismatch(host: host, seen: seen)
            }
            return nil
        }

        /// `roots` as `SecCertificate`s, made when a challenge needs them.
        private static func certificates(_ roots: TLSPolicy.Certificates) -> [SecCertificate] {
            roots.derEncoded.compactMap { SecCertificateCreateWithData(nil, $0 as CFData) }
        }

        /// The identity in a PKCS#12 bundle, or `nil`.
        private static func identity(_ data: Data, password: String) -> SecIdentity? {
            var items: CFArray?
            let options = [kSecImportExportPassphrase as String: password] as CFDictionary
            guard SecPKCS12Import(data as CFData, options, &items) == errSecSuccess,
                let first = (items as? [[String: Any]])?.first, let found = first[kSecImportItemIdentity as String]
            else { return nil }
            let object = found as AnyObject
            guard CFGetTypeID(object) == SecIdentityGetTypeID() else { return nil }
            return unsafeDowncast(object, to: SecIdentity.self)
        }
    }
#endif
