import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// The request as a `curl` command you can paste into a shell or a bug report, with the values
    /// `redaction` names written as `<redacted>`.
    ///
    /// It carries the method, URL, the request's own headers and its body; headers a session adds
    /// (`httpAdditionalHeaders`, cookies) are not part of the request and are not shown. Every argument
    /// is single-quoted for POSIX shells. By default (``Redaction/default``) `Authorization`, `Cookie`
    /// and the like, and query values such as `token` or `api_key`, are redacted; bodies never are. Pass
    /// ``Redaction/disabled`` for a command that carries every credential verbatim, ready to run.
    ///
    /// ```swift
    /// print(request.cURLDescription())
    /// // curl -X POST 'https://api.example.com/v1/items?api_key=<redacted>' \
    /// //   -H 'Authorization: <redacted>' \
    /// //   -H 'Content-Type: application/json' \
    /// //   --data-binary '{"name":"Bob'\''s"}'
    /// ```
    public func cURLDescription(redacting redaction: Redaction = .default) -> String {
        let method = httpMethod ?? "GET"
        var command = "curl"
        switch method {
        case "GET": break
        case "HEAD": command += " --head"
        default: command += " -X " + Self.shellQuoted(method)
        }
        var arguments = [command + " " + Self.shellQuoted(url.map { redaction.string(for: $0) } ?? "")]
        for (name, value) in (allHTTPHeaderFields ?? [:]).sorted(by: { $0.key.lowercased() < $1.key.lowercased() }) {
            arguments.append("-H " + Self.shellQuoted("\(name): \(redaction.value(value, forHeader: name))"))
        }
        if let body = httpBody, !body.isEmpty {
            if let text = String(data: body, encoding: .utf8) {
                arguments.append("--data-binary " + Self.shellQuoted(text))
            } else {
                arguments.append("--data-binary " + Self.shellQuoted("<\(body.count) bytes of binary data>"))
            }
        } else if httpBodyStream != nil {
            arguments.append("--data-binary " + Self.shellQuoted("<body stream not shown>"))
        }
        return arguments.joined(separator: " \\\n  ")
    }

    /// `text` in single quotes, each `'` written as `'\''`, so a POSIX shell reads it back unchanged;
    /// letters and digits alone (a method such as `POST`) need no quotes.
    static func shellQuoted(_ text: String) -> String {
        if !text.isEmpty, text.unicodeScalars.allSatisfy({ $0.isASCII && CharacterSet.alphanumerics.contains($0) }) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
