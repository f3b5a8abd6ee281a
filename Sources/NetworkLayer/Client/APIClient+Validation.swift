import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension APIClient {
    /// Runs the endpoint's ``CallOptions/validateResponse`` and then the client's ``ClientConfiguration/validate`` on
    /// `response`: an ``APIError`` they throw is kept, anything else becomes
    /// ``APIError/validationFailed(_:_:)`` with `response`.
    func validate(_ response: HTTPResponse, for call: Call) throws(APIError) {
        do {
            try call.validateResponse?(response)
            try call.validate?(response)
        } catch let error as APIError {
            throw error
        } catch {
            throw .validationFailed(error, response)
        }
    }

    /// `error`, or for an ``APIError/unacceptableStatusCode(_:_:)`` the error the validation hooks
    /// throw for its response, if they throw one.
    func validating(_ error: APIError, for call: Call) -> APIError {
        guard case .unacceptableStatusCode(_, let response) = error else { return error }
        do throws(APIError) {
            try validate(response, for: call)
        } catch {
            return error
        }
        return error
    }
}
