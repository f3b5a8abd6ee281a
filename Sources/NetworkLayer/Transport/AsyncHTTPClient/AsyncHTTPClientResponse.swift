#if AsyncHTTPClient
    import Foundation
    import NIOHTTP1

    extension AsyncHTTPClientExchange {
        /// The ``HTTPResponse`` of an AsyncHTTPClient response head from `url`, its headers converted
        /// when first read.
        static func response(_ head: HTTPResponseHead, url: URL?, body: Data = Data()) -> HTTPResponse {
            let fields = head.headers
            var response = HTTPResponse(statusCode: Int(head.status.code), url: url, body: body) { headers(fields) }
            response.protocolVersion = HTTPVersionNumber(major: head.version.major, minor: head.version.minor)
            return response
        }

        /// AsyncHTTPClient's header fields as ``HTTPHeaders``, sorted by name as the ones from Foundation
        /// are; a repeated name keeps its first spelling, with its values joined by ", " in the order
        /// received, as Foundation joins them.
        ///
        /// One sort, not a lookup per field: a response with a thousand fields must not hold the event
        /// loop that every other connection of the client shares.
        static func headers(_ fields: NIOHTTP1.HTTPHeaders) -> HTTPHeaders {
            var keyed: [(key: String, index: Int, field: HTTPHeader)] = []
            keyed.reserveCapacity(fields.count)
            for (index, (name, value)) in fields.enumerated() {
                keyed.append((name.lowercased(), index, HTTPHeader(name: name, value: value)))
            }
            keyed.sort { $0.key < $1.key || ($0.key == $1.key && $0.index < $1.index) }
            var joined: [(key: String, field: HTTPHeader)] = []
            joined.reserveCapacity(keyed.count)
            for (key, _, field) in keyed {
                if let last = joined.last, last.key == key {
                    joined[joined.count - 1].field = HTTPHeader(name: last.field.name, value: last.field.value + ", " + field.value)
                } else {
                    joined.append((key, field))
                }
            }
            return HTTPHeaders(sortedByName: joined)
        }
    }
#endif
