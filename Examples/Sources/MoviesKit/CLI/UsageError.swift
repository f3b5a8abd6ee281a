/// A command line that cannot be run, with a message saying what to change.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, for example `movie id must be a positive whole number, got 'abc'`.
    public let message: String

    /// Creates an error with `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
