/// The response type for bodies you do not read: `204 No Content`, `HEAD`, or any body you ignore.
///
/// Decoding as `Empty` always succeeds whatever the body holds, once the status is acceptable.
public struct Empty: Decodable, Sendable, Equatable {
    /// Creates an empty value.
    init() {}

    /// Ignores whatever the decoder holds.
    public init(from decoder: any Decoder) throws {}
}
