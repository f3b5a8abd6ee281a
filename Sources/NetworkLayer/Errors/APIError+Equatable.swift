import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension APIError {
    /// Whether both are the same case with equal values. The errors a case keeps are equal when they are of one type and equal (an `Equatable` error), or
    /// else alike in `String(reflecting:)`, which shows a `DecodingError`'s coding path and description.
    public static func == (lhs: APIError, rhs: APIError) -> Bool {
        switch lhs {
        case .invalidURL(let a): if case .invalidURL(let b) = rhs { a == b } else { false }
        case .invalidRequest(let a): if case .invalidRequest(let b) = rhs { a == b } else { false }
        case .encodingFailed(let a): if case .encodingFailed(let b) = rhs { a == b } else { false }
        case .requestFailed(let a): if case .requestFailed(let b) = rhs { a == b } else { false }
        case .timedOut: if case .timedOut = rhs { true } else { false }
        case .cancelled: if case .cancelled = rhs { true } else { false }
        case .invalidResponse: if case .invalidResponse = rhs { true } else { false }
        case .invalidData: if case .invalidData = rhs { true } else { false }
        case .unacceptableStatusCode(let a, let aResponse):
            if case .unacceptableStatusCode(let b, let bResponse) = rhs { a == b && aResponse == bResponse } else { false }
        case .decodingFailed(let a, let aBody, let aError):
            if case .decodingFailed(let b, let bBody, let bError) = rhs {
                a == b && aBody == bBody && sameError(aError, bError)
            } else {
                false
            }
        case .adaptationFailed(let a, let aError):
            if case .adaptationFailed(let b, let bError) = rhs { a == b && sameError(aError, bError) } else { false }
        case .credentialRefreshFailed(let a):
            if case .credentialRefreshFailed(let b) = rhs { sameError(a, b) } else { false }
        case .bufferLimitExceeded(let a): if case .bufferLimitExceeded(let b) = rhs { a == b } else { false }
        case .insecureRedirect(let aFrom, let aTo):
            if case .insecureRedirect(let bFrom, let bTo) = rhs { aFrom == bFrom && aTo == bTo } else { false }
        case .deadlineExceeded(let a): if case .deadlineExceeded(let b) = rhs { a == b } else { false }
        case .responseTooLarge(let aKind, let aLimit, let aReceived, let aAnnounced):
            if case .responseTooLarge(let bKind, let bLimit, let bReceived, let bAnnounced) = rhs {
                aKind == bKind && aLimit == bLimit && aReceived == bReceived && aAnnounced == bAnnounced
            } else {
                false
            }
        case .validationFailed(let aError, let aResponse):
            if case .validationFailed(let bError, let bResponse) = rhs {
                sameError(aError, bError) && aResponse == bResponse
            } else {
                false
            }
        case .certificatePinMismatch(let aHost, let aSeen):
            if case .certificatePinMismatch(let bHost, let bSeen) = rhs { aHost == bHost && aSeen == bSeen } else { false }
        case .unsupportedTLSPolicy(let a): if case .unsupportedTLSPolicy(let b) = rhs { a == b } else { false }
        case .invalidTLSPolicy(let a): if case .invalidTLSPolicy(let b) = rhs { a == b } else { false }
        case .cleartextCredentials(let a, let aHeaders):
            if case .cleartextCredentials(let b, let bHeaders) = rhs { a == b && aHeaders == bHeaders } else { false }
        case .downloadInterrupted(let a, let aResume):
            if case .downloadInterrupted(let b, let bResume) = rhs { a == b && aResume == bResume } else { false }
        }
    }

    /// Whether two kept errors are the same: of one type, and equal when it is `Equatable`, else
    /// alike in `String(reflecting:)` (which shows a `DecodingError`'s coding path and description).
    static func sameError(_ lhs: any Error, _ rhs: any Error) -> Bool {
        guard type(of: lhs) == type(of: rhs) else { return false }
        if let lhs = (lhs as Any) as? any Equatable { return isEqual(lhs, rhs) }
        return String(reflecting: lhs) == String(reflecting: rhs)
    }

    /// `lhs == rhs` when `rhs` is an `E` too.
    private static func isEqual<E: Equatable>(_ lhs: E, _ rhs: any Error) -> Bool {
        ((rhs as Any) as? E).map { $0 == lhs } ?? false
    }
}
