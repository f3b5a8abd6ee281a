#if DistributedTracing
    import Foundation
    import Tracing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// Traces one call by OpenTelemetry's stable HTTP client conventions: a CLIENT span for each request
    /// it sends (each retry and redirect hop alike, with `http.request.resend_count`), a child of the
    /// caller's task-local `ServiceContext`, whose context goes out in the request's headers through the
    /// tracer's `inject` (`traceparent` and `tracestate` with a W3C propagator such as swift-otel's).
    ///
    /// A span ends when the transport answered, or failed, as the conventions allow: at the head for a
    /// streamed body, once the body is in for a collected one. A `4xx` or `5xx` status, and any failure, set `error.type` and the
    /// error status. An answer no request was sent for (a cache's hit, a shared in-flight answer) makes
    /// no CLIENT span: it is an event on the caller's span, `networklayer.cache.hit` (or `.stale`) or
    /// `networklayer.answered_by_interceptor`, where the tracer can find that span.
    final class TracingObserver: Interceptor {
        let tracer: any Tracer
        let template: String?
        /// The requests of the call sent so far.
        private let sent = Locked(0)

        init(tracer: any Tracer, template: String?) {
            self.tracer = tracer
            self.template = template
        }

        func intercept(
            _ request: URLRequest,
            context: RequestContext,
            next: (URLRequest) async throws(APIError) -> TransportResponse
        ) async throws(APIError) -> TransportResponse {
            let conventions = HTTPClientConventions(request: request, template: template)
            let sentBefore = sent.withLock { sent in
                defer { sent += 1 }
                return sent
            }
            let span = tracer.startSpan(conventions.spanName, context: ServiceContext.current ?? .topLevel, ofKind: .client)
            span.updateAttributes { attributes in
                attributes["http.request.method"] = conventions.method
                if let original = conventions.originalMethod { attributes["http.request.method_original"] = original }
                attributes["server.address"] = conventions.serverAddress
                attributes["server.port"] = conventions.serverPort
                attributes["url.full"] = conventions.fullURL
                attributes["url.scheme"] = conventions.scheme
                if let template = conventions.template { attributes["url.template"] = template }
                if let count = HTTPClientConventions.resendCount(sentBefore) { attributes["http.request.resend_count"] = count }
            }
            var request = request
            tracer.inject(span.context, into: &request, using: HeaderInjector())
            do {
                let response = try await next(request)
                let status = response.head.statusCode
                span.attributes["http.response.status_code"] = status
                if let version = response.head.protocolVersion { span.attributes["network.protocol.version"] = version.text }
                if let errorType = HTTPClientConventions.errorType(status: status) {
                    span.attributes["error.type"] = errorType
                    span.setStatus(SpanStatus(code: .error))
                }
                span.end()
                return response
            } catch {
                span.attributes["error.type"] = error.conventionsType
                span.setStatus(SpanStatus(code: .error))
                span.end()
                throw error
            }
        }

        func observe(_ event: NetworkEvent) {
            guard case .exchangeFinished(let metrics) = event, !metrics.reachedTransport,
                let span = tracer.activeSpan(identifiedBy: ServiceContext.current ?? .topLevel)
            else { return }
            let conventions = HTTPClientConventions(request: metrics.request, template: template)
            let name = HTTPCache.outcome(of: metrics.response).map { "networklayer.cache.\($0.rawValue.lowercased())" }
            var attributes = SpanAttributes()
            attributes["http.request.method"] = conventions.method
            attributes["url.full"] = conventions.fullURL
            attributes["http.response.status_code"] = metrics.response.statusCode
            span.addEvent(SpanEvent(name: name ?? "networklayer.answered_by_interceptor", attributes: attributes))
        }
    }

    /// Puts a tracer's context into a request's headers.
    private struct HeaderInjector: Injector {
        func inject(_ value: String, forKey key: String, into request: inout URLRequest) {
            request.setValue(value, forHTTPHeaderField: key)
        }
    }
#endif
