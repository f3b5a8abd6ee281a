import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pages of a paginated API, fetched one at a time as you iterate: the first request's page,
/// then the page of each request your `next` closure returns, until it returns `nil`.
///
/// ``APIClient/pages(startingWith:maximumPages:following:)`` follows a `Link` header or any URL;
/// ``APIClient/pages(startingWith:maximumPages:next:)`` a page number or a cursor. Nothing is sent before the first `next()`, each page is one call with
/// everything a call does (interceptors, retries, validation), and iterating ends with the first
/// error, or with ``APIError/cancelled`` once the iterating task is cancelled.
public struct Pages<Page: Decodable & Sendable>: AsyncSequence, Sendable {
    /// A decoded page.
    public typealias Element = Page

    /// Sends the request of a page: the first one for `nil`, else the one after the given page, if any.
    fileprivate let fetch: @Sendable (Response<Page>?) async throws(APIError) -> Response<Page>?
    /// The most pages fetched; `nil` for no limit.
    fileprivate let maximumPages: Int?
    /// Whether a page whose URL was fetched before ends the pages, as links that go round in a circle
    /// would otherwise never end: for pages that follow URLs, not for requests of yours, whose bodies may differ.
    fileprivate var endsOnRepeatedURL = false

    /// Starts from the first page.
    public func makeAsyncIterator() -> Iterator {
        Iterator(pages: self)
    }

    /// Fetches the pages in order.
    public struct Iterator: AsyncIteratorProtocol {
        private let pages: Pages
        private var previous: Response<Page>?
        private var count = 0
        private var finished = false
        /// The URLs of the pages fetched, when a repeated one ends the pages.
        private var visited: Set<URL> = []

        fileprivate init(pages: Pages) {
            self.pages = pages
        }

        /// The next page, or `nil` after the last (when `next` returned `nil`, the page limit was reached,
        /// or a followed URL led back to a page already fetched).
        /// - Throws: The ``APIError`` of the page that failed, which ends the pages; ``APIError/cancelled``
        ///   when the task is cancelled.
        public mutating func next() async throws(APIError) -> Page? {
            if finished { return nil }
            if let maximum = pages.maximumPages, count >= maximum {
                finished = true
                return nil
            }
            if Task.isCancelled {
                finished = true
                throw .cancelled
            }
            do throws(APIError) {
                guard let page = try await pages.fetch(previous) else {
                    finished = true
                    return nil
                }
                if pages.endsOnRepeatedURL, let url = page.response.url, !visited.insert(url).inserted {
                    finished = true
                    return nil
                }
                count += 1
                previous = page
                return page.value
            } catch {
                finished = true
                throw error
            }
        }
    }
}

extension APIClient {
    /// The pages of a paginated API whose next page is a URL: the `Link` header's `next` by default, or
    /// any other (a `next_url` in the body). Each page after the first is sent as a request you built,
    /// with the first request's overrides (decoder, acceptable statuses, validation, limits). A URL on
    /// another origin than the page that named it (another scheme, host or port) is sent without this
    /// client's credentials (``RequestContext/requiresAuthentication`` is `false`), and a URL that leads
    /// back to a page already fetched ends the pages.
    ///
    /// ```swift
    /// for try await page in client.pages(startingWith: .notes) {   // follows Link: <…>; rel="next"
    ///     print(page.items.count)
    /// }
    /// ```
    /// - Parameters:
    ///   - first: The request of the first page.
    ///   - maximumPages: The most pages fetched; `nil` (no limit) by default.
    ///   - following: The request of the page after the given one, or `nil` after the last page; by
    ///     default a `GET` of the target of the response's `Link` with the relation `next`.
    /// - Returns: The pages, fetched as you iterate.
    public func pages<Page>(
        startingWith first: Request<Page>,
        maximumPages: Int? = nil,
        following: @escaping @Sendable (Response<Page>) -> URLRequest? = { $0.response.link("next").map { URLRequest(url: $0) } }
    ) -> Pages<Page> {
        Pages(
            fetch: { previous async throws(APIError) in
                guard let previous else { return try await response(for: first) }
                guard let request = following(previous) else { return nil }
                var call = try makeCall(for: first)
                call.request = request
                // A link to another origin (or from https to http) gets no credential of this client's.
                if let from = previous.response.url, let to = request.url, !RedirectPolicy.sameOrigin(from, to) {
                    call.requiresAuthentication = false
                }
                call.upload = nil
                if let timeout = first.options.timeout { call.request.timeoutInterval = timeout }
                let response = try await execute(call)
                return Response(value: try decode(Page.self, from: response, for: call), response: response)
            }, maximumPages: maximumPages, endsOnRepeatedURL: true)
    }

    /// The pages of a paginated API whose next page is a request of yours: a page number, or a cursor
    /// from the body.
    ///
    /// ```swift
    /// let notes = client.pages(startingWith: .notes(cursor: nil)) { page in
    ///     page.value.nextCursor.map { .notes(cursor: $0) }
    /// }
    /// ```
    /// - Parameters:
    ///   - first: The request of the first page.
    ///   - maximumPages: The most pages fetched; `nil` (no limit) by default.
    ///   - next: The request of the page after the given one, or `nil` after the last page.
    /// - Returns: The pages, fetched as you iterate.
    public func pages<Page>(
        startingWith first: Request<Page>,
        maximumPages: Int? = nil,
        next: @escaping @Sendable (Response<Page>) -> Request<Page>?
    ) -> Pages<Page> {
        Pages(
            fetch: { previous async throws(APIError) in
                guard let previous else { return try await response(for: first) }
                guard let request = next(previous) else { return nil }
                return try await response(for: request)
            }, maximumPages: maximumPages)
    }
}
