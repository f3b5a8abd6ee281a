import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SessionTaskHandler {
    /// The failure of a body to collect whose head announces more than ``maximumBodySize``: it ends
    /// the exchange before any of the body is read.
    func announcedTooLarge(_ response: HTTPURLResponse) -> APIError? {
        guard let limit = maximumBodySize,
            ResponseLimits.isAnnounced(
                over: limit, length: response.expectedContentLength, statusCode: response.statusCode, method: method,
                contentEncoding: response.value(forHTTPHeaderField: "Content-Encoding"))
        else { return nil }
        return .responseTooLarge(.inMemory, limit: limit, received: response.expectedContentLength, announced: true)
    }

    /// The length of the body `response` announces: `nil` when it announces none, or when the body
    /// is encoded, since libcurl hands it over inflated.
    static func announcedLength(of response: HTTPURLResponse?) -> Int64? {
        guard let response, ResponseLimits.isIdentity(response.value(forHTTPHeaderField: "Content-Encoding")) else { return nil }
        return response.expectedContentLength
    }

    /// A streamed body whose reader ending early ends the exchange, and whose reader falling behind
    /// holds the transfer back: on Apple platforms by suspending the task, on Linux (where a task
    /// resumed after suspending starts again from the first byte) by spooling the rest to a file.
    func makeBody() -> (ResponseBody, ResponseBody.Writer) {
        #if canImport(FoundationNetworking)
            // The spool outlives the task when the reader is behind at its end: held by the body, not the handler.
            let spool = spool
            let (body, writer) = ResponseBody.makeStream(
                onDemand: { spool.withLock { $0 }?.readerCaughtUp() },
                onTermination: { [weak self] reason in self?.end(reason) }
            )
            spool.withLock { $0 = BodySpool(writer: writer) }
        #else
            let (body, writer) = ResponseBody.makeStream(
                onDemand: { [weak self] in self?.readerCaughtUp() },
                onTermination: { [weak self] reason in self?.end(reason) }
            )
        #endif
        return (body, writer)
    }

    #if canImport(FoundationNetworking)
        /// Hands `data` to the reader, through the spool once the reader has fallen behind.
        func feed(_ data: Data, to writer: ResponseBody.Writer) {
            spool.withLock { $0 }?.feed(data)
        }

        func finish(_ writer: ResponseBody.Writer?, throwing error: APIError?) {
            if let spool = spool.withLock({ $0 }) {
                spool.finish(throwing: error)
            } else if let error {
                writer?.finish(throwing: error)
            } else {
                writer?.finish()
            }
        }

    #else
        /// Hands `data` to the reader, suspending the task while the reader is behind.
        func feed(_ data: Data, to writer: ResponseBody.Writer) {
            guard writer.yield(data) == .pause else { return }
            let task = setPaused(true)
            task?.suspend()
        }

        func finish(_ writer: ResponseBody.Writer?, throwing error: APIError?) {
            if let error {
                writer?.finish(throwing: error)
            } else {
                writer?.finish()
            }
        }

        private func readerCaughtUp() {
            setPaused(false)?.resume()
        }
    #endif
}
