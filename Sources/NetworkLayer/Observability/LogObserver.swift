#if SwiftLog
    import Foundation
    import Logging

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// Writes one call's ``NetworkEvent``s to a swift-log `Logger`, at the levels swift.org asks of a
    /// library: `trace` for each exchange and attempt, `debug` for the call's end; nothing above.
    ///
    /// Every line carries the request ID, the method and the URL (redacted as ``Redaction/default``
    /// says: userinfo and credential query values, OpenTelemetry's list among them), and what the
    /// event adds: the status, the duration in seconds, the attempt, the redirect hop, the cache's
    /// outcome, the bytes, the error's type. No header value is written, and no body: an error's
    /// message only when it carries neither a body, a URL nor an error of the app's own.
    struct LogObserver: Interceptor {
        let logger: Logger

        func observe(_ event: NetworkEvent) {
            switch event {
            case .requestStarted(let id, let request):
                logger.trace("request started", metadata: Self.metadata(id, request))
            case .exchangeFinished(let metrics):
                logger.trace(
                    metrics.reachedTransport ? "exchange finished" : "exchange answered without the network",
                    metadata: Self.metadata(of: metrics))
            case .attemptFinished(let metrics):
                logger.trace(metrics.error == nil ? "attempt finished" : "attempt failed", metadata: Self.metadata(of: metrics))
            case .requestFinished(let metrics):
                logger.debug(metrics.error == nil ? "request finished" : "request failed", metadata: Self.metadata(of: metrics))
            }
        }

        /// The fields every line has: the request ID, the method and the redacted URL.
        private static func metadata(_ id: Int, _ request: URLRequest) -> Logger.Metadata {
            [
                "networklayer.request_id": "\(id)",
                "http.request.method": .string(request.httpMethod ?? "GET"),
                "url.full": .string(request.url.map { Redaction.default.string(for: $0) } ?? ""),
            ]
        }

        private static func metadata(of metrics: ExchangeMetrics) -> Logger.Metadata {
            var metadata = metadata(metrics.context.requestID, metrics.request)
            metadata["networklayer.attempt"] = "\(metrics.context.attempt)"
            metadata["http.response.status_code"] = "\(metrics.response.statusCode)"
            metadata["networklayer.duration"] = .string(seconds(metrics.duration))
            if !metrics.context.redirectedFrom.isEmpty {
                metadata["networklayer.redirect_hop"] = "\(metrics.context.redirectedFrom.count)"
            }
            if let outcome = HTTPCache.outcome(of: metrics.response) {
                metadata["networklayer.cache"] = .string(outcome.rawValue.lowercased())
            }
            return metadata
        }

        private static func metadata(of metrics: AttemptMetrics) -> Logger.Metadata {
            var metadata = metadata(metrics.requestID, metrics.request)
            metadata["networklayer.attempt"] = "\(metrics.attempt)"
            metadata["networklayer.duration"] = .string(seconds(metrics.duration))
            metadata["http.request.body.size"] = "\(metrics.bytesSent)"
            metadata["http.response.body.size"] = "\(metrics.bytesReceived)"
            if let status = metrics.response?.statusCode { metadata["http.response.status_code"] = "\(status)" }
            if let delay = metrics.retryDelay { metadata["networklayer.retry_in"] = .string(seconds(delay)) }
            add(metrics.error, to: &metadata)
            return metadata
        }

        private static func metadata(of metrics: RequestMetrics) -> Logger.Metadata {
            var metadata = metadata(metrics.requestID, metrics.request)
            metadata["networklayer.attempts"] = "\(metrics.attempts)"
            metadata["networklayer.duration"] = .string(seconds(metrics.duration))
            if let status = metrics.response?.statusCode { metadata["http.response.status_code"] = "\(status)" }
            add(metrics.error, to: &metadata)
            return metadata
        }

        /// `error.type`, and the message of an error that carries no body and no URL.
        private static func add(_ error: APIError?, to metadata: inout Logger.Metadata) {
            guard let error else { return }
            metadata["error.type"] = .string(error.conventionsType)
            switch error {
            // A body, a URL, a value of the request's, or the words of an error of the app's own (a
            // refresh's, an adapter's, an encoder's).
            case .unacceptableStatusCode, .validationFailed, .decodingFailed, .invalidURL, .insecureRedirect, .downloadInterrupted,
                .adaptationFailed, .credentialRefreshFailed, .invalidRequest, .encodingFailed:
                break
            default:
                metadata["error.message"] = .string(error.description)
            }
        }

        /// Seconds with a millisecond's precision.
        private static func seconds(_ value: TimeInterval) -> String {
            String(format: "%.3f", value)
        }
    }
#endif
