import Foundation

#if SwiftLog
    import Logging
#endif
#if SwiftMetrics
    import CoreMetrics
#endif
#if DistributedTracing
    import Tracing
#endif

extension ClientConfiguration {
    /// The interceptors of a call with `options`: the configuration's, then the observers the package
    /// traits bring, each only when it has somewhere to report to: a logger that logs at `debug` or
    /// below; a metrics factory (`MetricsSystem.factory`) or a tracer (`InstrumentationSystem.tracer`)
    /// other than the no-op ones, as bootstrapped or bound to the calling task (`withMetricsFactory`,
    /// `withTracer`) when the call is made. They come last, so that each
    /// sees, in ``Interceptor/intercept(_:context:next:)``, only the exchanges that reach the transport:
    /// a cache's hit or a de-duplicated call is no request sent.
    func interceptors(for options: CallOptions) -> [any Interceptor] {
        var interceptors = interceptors
        #if SwiftLog
            if let logger = options.logger ?? logger, logger.logLevel <= .debug {
                interceptors.append(LogObserver(logger: logger))
            }
        #endif
        #if SwiftMetrics
            let factory = MetricsSystem.factory
            if !(factory is NOOPMetricsHandler) {
                interceptors.append(MetricsObserver(factory: factory, template: options.urlTemplate))
            }
        #endif
        #if DistributedTracing
            let tracer = InstrumentationSystem.tracer
            if !(tracer is NoOpTracer) {
                interceptors.append(TracingObserver(tracer: tracer, template: options.urlTemplate))
            }
        #endif
        return interceptors
    }
}
