import Foundation

/// Cuts a byte stream that arrives in arbitrary chunks into lines.
///
/// A line ends at LF, CR or CRLF, as in the WHATWG Server-Sent Events format; a CRLF split
/// between two chunks still counts once. Lines are returned without their ending, decoded as
/// UTF-8 (invalid bytes become U+FFFD), and a UTF-8 byte order mark at the very start of the
/// stream is dropped. Since CR and LF never occur inside a multi-byte UTF-8 character, cutting
/// at those bytes never splits a character.
struct LineSplitter {
    /// The longest line kept, in bytes; a longer one stops the splitter (``isOverLimit``), since a
    /// line that never ends would otherwise grow without bound.
    let limit: Int
    private var partial: [UInt8] = []
    private var afterCR = false
    private var atStart = true

    /// A splitter that fails on lines longer than `limit` bytes.
    init(limit: Int) {
        self.limit = limit
    }

    private static let lf = UInt8(ascii: "\n")
    private static let cr = UInt8(ascii: "\r")
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Whether a line outgrew ``limit``: the splitter took no more bytes from then on.
    private(set) var isOverLimit = false

    /// Adds a chunk and returns the lines it completes, in order; once a line outgrows ``limit``, the
    /// lines completed before it and then nothing more (see ``isOverLimit``).
    mutating func append(_ chunk: Data) -> [String] {
        var lines: [String] = []
        for byte in chunk {
            if afterCR {
                afterCR = false
                if byte == Self.lf { continue }
            }
            if byte == Self.lf || byte == Self.cr {
                lines.append(takeLine())
                afterCR = byte == Self.cr
            } else {
                guard partial.count < limit, !isOverLimit else {
                    isOverLimit = true
                    break
                }
                partial.append(byte)
            }
        }
        return lines
    }

    /// The last line when the stream ended without a line ending, or `nil` when nothing is pending
    /// (a stream of nothing but a byte order mark has no line).
    mutating func finish() -> String? {
        if partial.isEmpty || isOverLimit || (atStart && partial.elementsEqual(Self.byteOrderMark)) { return nil }
        return takeLine()
    }

    private mutating func takeLine() -> String {
        defer { partial.removeAll(keepingCapacity: true) }
        if atStart {
            atStart = false
            if partial.starts(with: Self.byteOrderMark) {
                return String(decoding: partial.dropFirst(Self.byteOrderMark.count), as: UTF8.self)
            }
        }
        return String(decoding: partial, as: UTF8.self)
    }
}
