import Foundation

/// The fast path of ``URLBuilder``: the URL's text written once, as bytes, into a string of the size
/// it needs, then parsed once.
extension URLBuilder {
    /// The pieces joined as text and parsed once, strictly (no invalid character is encoded away). It
    /// returns `nil` whenever the result is not an absolute URL with a scheme, a host and a valid port,
    /// and the reference path through `URLComponents` then decides, with the same rules as always: this
    /// path only ever returns the URL that one would.
    /// - Parameters:
    ///   - base: An absolute base: `prefix [? baseQuery] [# fragment]`, split at its first `?` or `#`.
    ///   - escapedPath: The escaped path, leading slashes included (they are dropped here).
    ///   - query: The encoded query, or empty.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    static func joinedURL(base: String, escapedPath: String, query: [UInt8]) -> URL? {
        let text = withUTF8(base) { base in
            withUTF8(escapedPath) { path in
                query.withUnsafeBufferPointer { query in
                    joinedText(base: base, path: path, query: query)
                }
            }
        }
        guard let url = URL(string: text, encodingInvalidCharacters: false) else { return nil }
        if hasSchemeHostAndValidPort(text) { return url }
        // A form the byte check does not recognise (user info, an empty port): ask the URL itself.
        guard url.scheme?.isEmpty == false, url.host(percentEncoded: true)?.isEmpty == false,
            (0...65535).contains(url.port ?? 0)
        else { return nil }
        return url
    }

    /// `base`'s part before its query and fragment, `/` and `path` (one slash between them) when the path
    /// is not empty, the base's query then `query` joined by `&`, and the base's fragment.
    private static func joinedText(
        base: UnsafeBufferPointer<UInt8>,
        path: UnsafeBufferPointer<UInt8>,
        query: UnsafeBufferPointer<UInt8>
    ) -> String {
        let end = base.count
        var queryStart = 0
        while queryStart < end, base[queryStart] != UInt8(ascii: "?"), base[queryStart] != UInt8(ascii: "#") {
            queryStart += 1
        }
        var fragmentStart = queryStart
        if queryStart < end, base[queryStart] == UInt8(ascii: "?") {
            while fragmentStart < end, base[fragmentStart] != UInt8(ascii: "#") { fragmentStart += 1 }
        }
        var pathStart = 0
        while pathStart < path.count, path[pathStart] == UInt8(ascii: "/") { pathStart += 1 }
        let path = UnsafeBufferPointer(rebasing: path[pathStart...])
        var prefixEnd = queryStart
        if !path.isEmpty {
            while prefixEnd > 0, base[prefixEnd - 1] == UInt8(ascii: "/") { prefixEnd -= 1 }
        }
        // The base's query without its `?`; `nil` when it has none, empty for a lone `?`.
        let baseQuery = queryStart < fragmentStart ? UnsafeBufferPointer(rebasing: base[(queryStart + 1)..<fragmentStart]) : nil

        // At most every byte of the three, a `/` and one of `?` or `&`.
        return text(capacity: end + path.count + query.count + 2) { text in
            text.write(UnsafeBufferPointer(rebasing: base[..<prefixEnd]))
            if !path.isEmpty {
                text.write(UInt8(ascii: "/"))
                text.write(path)
            }
            if let baseQuery, !baseQuery.isEmpty {
                text.write(UInt8(ascii: "?"))
                text.write(baseQuery)
                if !query.isEmpty {
                    text.write(UInt8(ascii: "&"))
                    text.write(query)
                }
            } else if !query.isEmpty {
                text.write(UInt8(ascii: "?"))
                text.write(query)
            } else if baseQuery != nil {
                text.write(UInt8(ascii: "?"))
            }
            text.write(UnsafeBufferPointer(rebasing: base[fragmentStart...]))
        }
    }

    /// Whether `text`, which parses as a URL, plainly has a scheme, a host and a port in `0...65535`:
    /// `scheme://host[:port]` then a `/`, `?`, `#` or the end, with no user info, the host a name or an
    /// IP literal in brackets and the port one to five digits. `false` only says that the text is not in
    /// that form, not that the URL is invalid.
    private static func hasSchemeHostAndValidPort(_ text: String) -> Bool {
        withUTF8(text) { bytes in
            var index = 0
            guard let first = bytes.first, isLetter(first) else { return false }
            while index < bytes.count, isSchemeByte(bytes[index]) { index += 1 }
            guard bytes.count - index > 3, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"),
                bytes[index + 2] == UInt8(ascii: "/")
            else { return false }
            index += 3
            let hostStart = index
            if bytes[index] == UInt8(ascii: "[") {
                while index < bytes.count, bytes[index] != UInt8(ascii: "]"), !endsAuthority(bytes[index]) { index += 1 }
                guard index < bytes.count, bytes[index] == UInt8(ascii: "]"), index - hostStart > 1 else { return false }
                index += 1
            } else {
                while index < bytes.count, bytes[index] != UInt8(ascii: ":"), bytes[index] != UInt8(ascii: "@"),
                    !endsAuthority(bytes[index])
                {
                    index += 1
                }
                guard index > hostStart else { return false }
            }
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                return index == bytes.count || endsAuthority(bytes[index])
            }
            index += 1
            var port = 0
            var digits = 0
            while index < bytes.count, !endsAuthority(bytes[index]) {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 5 else { return false }
                port = port * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                index += 1
            }
            return digits > 0 && port <= 65535
        }
    }

    @inline(__always)
    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    /// A letter, a digit, `+`, `-` or `.` (RFC 3986, section 3.1).
    @inline(__always)
    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// `/`, `?` or `#`: the end of the authority.
    @inline(__always)
    private static func endsAuthority(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }

    /// `body` run on `text`'s UTF-8 bytes, in place when the string stores them contiguously.
    static func withUTF8<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// A string of at most `capacity` UTF-8 bytes, written by `write` in place, in one allocation.
    static func text(capacity: Int, _ write: (inout TextWriter) -> Void) -> String {
        String(unsafeUninitializedCapacity: capacity) { output in
            var writer = TextWriter(output: output)
            write(&writer)
            return writer.count
        }
    }

    /// Appends bytes to a buffer sized beforehand; a write past its end is dropped.
    struct TextWriter {
        let output: UnsafeMutableBufferPointer<UInt8>
        /// How many bytes are written.
        private(set) var count = 0

        init(output: UnsafeMutableBufferPointer<UInt8>) {
            self.output = output
        }

        mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let source = bytes.baseAddress, let target = output.baseAddress, !bytes.isEmpty else { return }
            assert(count + bytes.count <= output.count, "a URL's text outgrew the capacity reserved for it")
            guard count + bytes.count <= output.count else { return }
            (target + count).initialize(from: source, count: bytes.count)
            count += bytes.count
        }

        mutating func write(_ byte: UInt8) {
            assert(count < output.count, "a URL's text outgrew the capacity reserved for it")
            guard count < output.count else { return }
            output[count] = byte
            count += 1
        }
    }
}
