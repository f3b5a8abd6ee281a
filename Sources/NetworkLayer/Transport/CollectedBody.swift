import Foundation

/// A body collected in memory as it arrives, without growing a buffer by copying it (within 64 MiB
/// and the limit): so that a body stopped at its limit has cost the limit and one chunk, whatever
/// the allocator does with the memory a grown buffer leaves behind.
///
/// - A body in one chunk is that chunk: nothing is allocated or copied.
/// - At the second chunk, a body whose length is announced (and not encoded) gets one buffer of that
///   length (at most ``largestReservation``, and at most the limit), and every chunk is copied into it.
/// - A body of unknown length keeps its chunks as they came, and joins them once, at its end: a
///   moment at twice its size, but no copy while it grows, and none for a body that fails.
struct CollectedBody: Sendable {
    /// The most bytes reserved up front from an announced length: 64 MiB, so that a header cannot
    /// make the process allocate what the body never brings.
    static let largestReservation: Int64 = 64 * 1024 * 1024

    private enum Layout {
        /// Nothing, or one chunk, so far.
        case undecided
        /// Every chunk is copied into ``buffer``, reserved at the announced length.
        case reserved
        /// The chunks after the first are kept in ``rest``.
        case chunks
    }

    /// The first chunk, or the buffer every chunk is copied into.
    private var buffer = Data()
    /// The chunks after the first, for a body of unknown length.
    private var rest: [Data] = []
    private var layout = Layout.undecided
    /// The most bytes the body may have, which caps the reservation.
    private let limit: Int64?
    /// The bytes collected so far.
    private(set) var count = 0

    /// An empty body.
    /// - Parameter limit: The most bytes the body may have, which caps the reservation; checking
    ///   it is the caller's.
    init(limit: Int64? = nil) {
        self.limit = limit
    }

    /// Adds `chunk`, kept as it is when it is the first, or when the length is unknown.
    /// - Parameters:
    ///   - chunk: The bytes that came.
    ///   - length: The length the head announces; `nil` when it announces none or when the body is
    ///     decoded from an encoded one. Read once, at the second chunk.
    mutating func append(_ chunk: Data, announcedLength length: @autoclosure () -> Int64?) {
        guard !chunk.isEmpty else { return }
        defer { count += chunk.count }
        if count == 0 {
            buffer = chunk
            return
        }
        if layout == .undecided { decide(length()) }
        switch layout {
        case .reserved: buffer.append(chunk)
        case .chunks, .undecided: rest.append(chunk)
        }
    }

    /// Adds a copy of `bytes`: a chunk of their own when they are the first, or when the length is unknown.
    /// - Parameters:
    ///   - bytes: The bytes that came.
    ///   - length: The length the head announces, as for ``append(_:announcedLength:)``; read once,
    ///     at the second chunk.
    mutating func append(_ bytes: UnsafeRawBufferPointer, announcedLength length: @autoclosure () -> Int64?) {
        guard !bytes.isEmpty else { return }
        defer { count += bytes.count }
        if count == 0 {
            buffer = Data(bytes)
            return
        }
        if layout == .undecided { decide(length()) }
        switch layout {
        case .reserved: buffer.append(contentsOf: bytes)
        case .chunks, .undecided: rest.append(Data(bytes))
        }
    }

    /// The whole body: the chunks joined when there is more than one.
    func joined() -> Data {
        guard !rest.isEmpty else { return buffer }
        var joined = Data(capacity: count)
        joined.append(buffer)
        for chunk in rest { joined.append(chunk) }
        return joined
    }

    /// The whole body, leaving this one empty.
    mutating func take() -> Data {
        defer { self = CollectedBody(limit: limit) }
        return joined()
    }

    /// Chooses the layout for a body of announced `length`, moving what came so far into a buffer of
    /// that length when there is one.
    private mutating func decide(_ length: Int64?) {
        guard let length, length > 0 else {
            layout = .chunks
            return
        }
        layout = .reserved
        var reserved = Data(capacity: max(Int(min(length, limit ?? length, Self.largestReservation)), count))
        reserved.append(buffer)
        buffer = reserved
    }
}
