import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSession {
    /// Sends `request` and returns the body and the HTTP response: the one seam every public
    /// way of sending goes through.
    ///
    /// It drives `dataTask(with:completionHandler:)` rather than `data(for:)`: on Linux,
    /// cancelling many in-flight `data(for:)` calls at once can hang or crash, while a
    /// completion-handler task cancelled from another queue does not. Swift task cancellation
    /// cancels the `URLSessionTask`, before or after it starts.
    /// - Throws: ``APIError/cancelled``, ``APIError/timedOut``, ``APIError/requestFailed(_:)`` or ``APIError/invalidResponse``.
    func httpResponse(for request: URLRequest) async throws(APIError) -> (Data, HTTPURLResponse) {
        let request = Self.wholeSecondTimeout(request)
        let state = Locked(TransportState.idle)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<(Data, HTTPURLResponse), APIError>, Never>) in
                let task = state.withLock { state -> URLSessionDataTask? in
                    guard case .idle = state else { return nil }
                    let task = dataTask(with: request) { data, response, error in
                        continuation.resume(returning: Self.result(data: data, response: response, error: error))
                    }
                    state = .running(task)
                    return task
                }
                if let task {
                    task.resume()
                } else {
                    continuation.resume(returning: .failure(.cancelled))
                }
            }
        } onCancel: {
            let task = state.withLock { state -> URLSessionTask? in
                defer { state = .cancelled }
                if case .running(let task) = state { return task }
                return nil
            }
            // Cancelling from the cancelling thread itself can deadlock FoundationNetworking
            // when many tasks are cancelled at once; another queue avoids it.
            if let task {
                DispatchQueue.global().async { task.cancel() }
            }
        }
        return try result.get()
    }

    /// FoundationNetworking cuts a request's timeout to whole seconds, so 0.5 s fires at once and
    /// 1.9 s after one second; rounding up makes a timeout never fire before its time.
    private static func wholeSecondTimeout(_ request: URLRequest) -> URLRequest {
        #if canImport(FoundationNetworking)
            let timeout = request.timeoutInterval
            guard timeout.isFinite, timeout.rounded(.up) != timeout else { return request }
            var request = request
            request.timeoutInterval = max(1, timeout.rounded(.up))
            return request
        #else
            return request
        #endif
    }

    private static func result(
        data: Data?,
        response: URLResponse?,
        error: (any Error)?
    ) -> Result<(Data, HTTPURLResponse), APIError> {
        if let error {
            return .failure(APIError(transportError: error))
        }
        guard let response = response as? HTTPURLResponse else {
            return .failure(.invalidResponse)
        }
        return .success((data ?? Data(), response))
    }
}

/// Where a transport call is, so cancellation and start never miss each other.
private enum TransportState {
    case idle
    case running(URLSessionTask)
    case cancelled
}
