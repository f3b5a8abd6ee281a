import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPCache {
    /// The answer to a request with its own `If-None-Match` or a single byte `Range` from `stored`
    /// when it is fresh (RFC 9111 §4.3.2, RFC 9110 §14): a `304` when a tag matches, the stored
    /// response when none does, a `206` of the range; `nil` to ask the network (nothing fresh
    /// stored, other conditions, or a range this cache does not serve).
    static func conditionalAnswer(to request: URLRequest, from stored: CachedResponse?, directives: CacheControl, at now: Date)
        -> TransportResponse?
    {
        let noneMatch = request.value(forHTTPHeaderField: "If-None-Match")
        let range = request.value(forHTTPHeaderField: "Range")
        guard noneMatch != nil || range != nil, let stored, stored.response.statusCode == 200,
            !["If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range"].contains(where: {
                request.value(forHTTPHeaderField: $0) != nil
            }),
            use(stored, directives: directives, at: now) == .fresh
        else { return nil }
        if let noneMatch {
            guard let tag = stored.response.headers["ETag"] else { return nil }
            if matches(noneMatch, tag) { return notModified(stored, at: now) }
            if range == nil { return answer(with: stored, .hit, at: now) }
            return nil
        }
        guard let range, let bounds = byteRange(range, length: stored.response.body.count) else { return nil }
        return partial(stored, bounds, at: now)
    }

    /// Whether an `If-None-Match` list names `tag` by the weak comparison, or is `*`.
    private static func matches(_ noneMatch: String, _ tag: String) -> Bool {
        let wanted = opaque(tag)
        return noneMatch.utf8.split(separator: UInt8(ascii: ",")).contains { member in
            let candidate = String(decoding: member, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            return candidate == "*" || opaque(candidate) == wanted
        }
    }

    /// An entity tag without its weakness prefix, for the weak comparison (RFC 9110 §8.8.3.2).
    private static func opaque(_ tag: String) -> String {
        let trimmed = tag.trimmingCharacters(in: .whitespaces)
        return trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed
    }

    /// A `304` from `stored`: its fields but those of its body's length, no body.
    private static func notModified(_ stored: CachedResponse, at now: Date) -> TransportResponse {
        let full = answer(with: stored, .hit, at: now).head
        let headers = HTTPHeaders(full.headers.filter { $0.name.lowercased() != "content-length" })
        return TransportResponse(HTTPResponse(statusCode: 304, headers: headers, url: full.url))
    }

    /// A `206` of `bounds` of `stored`'s body, with its `Content-Range`.
    private static func partial(_ stored: CachedResponse, _ bounds: ClosedRange<Int>, at now: Date) -> TransportResponse {
        let full = answer(with: stored, .hit, at: now).head
        var headers = HTTPHeaders(full.headers.filter { $0.name.lowercased() != "content-length" })
        headers.add(name: "Content-Range", value: "bytes \(bounds.lowerBound)-\(bounds.upperBound)/\(full.body.count)")
        headers.add(name: "Content-Length", value: String(bounds.count))
        let body = full.body.subdata(in: full.body.startIndex + bounds.lowerBound..<full.body.startIndex + bounds.upperBound + 1)
        return TransportResponse(HTTPResponse(statusCode: 206, headers: headers, body: body, url: full.url))
    }

    /// The bytes one `bytes=first-last`, `bytes=first-` or `bytes=-suffix` range selects of a body
    /// of `length` (RFC 9110 §14.1.2); `nil` for several ranges, another unit, or none satisfiable.
    static func byteRange(_ value: String, length: Int) -> ClosedRange<Int>? {
        let text = value.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes="), length > 0 else { return nil }
        let spec = text.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard !spec.contains(","), parts.count == 2 else { return nil }
        let first = CacheControl.deltaSeconds(String(parts[0]))
        let last = CacheControl.deltaSeconds(String(parts[1]))
        switch (parts[0].isEmpty, parts[1].isEmpty) {
        case (true, false):
            guard let suffix = last, suffix > 0 else { return nil }
            return max(0, length - suffix)...(length - 1)
        case (false, true):
            guard let first, first < length else { return nil }
            return first...(length - 1)
        case (false, false):
            guard let first, let last, first <= last, first < length else { return nil }
            return first...min(last, length - 1)
        case (true, true):
            return nil
        }
    }
}

extension TransportResponse {
    /// This response without a ``HTTPCache/outcomeHeader``: one from the network never claims to
    /// come from the cache, whatever the server sent.
    func withoutOutcomeHeader() -> TransportResponse {
        guard head.headers[HTTPCache.outcomeHeader] != nil else { return self }
        var copy = self
        copy.head = head.withoutOutcomeHeader()
        return copy
    }
}

extension HTTPResponse {
    /// This response without a ``HTTPCache/outcomeHeader``.
    func withoutOutcomeHeader() -> HTTPResponse {
        guard headers[HTTPCache.outcomeHeader] != nil else { return self }
        var headers = headers
        headers.remove(name: HTTPCache.outcomeHeader)
        return HTTPResponse(statusCode: statusCode, headers: headers, body: body, url: url)
    }
}
