import Foundation

/// Where the command writes: standard output for results, standard error for failures.
///
/// The program uses ``standard``; tests pass closures that collect the text.
public struct OutputSink: Sendable {
    /// Writes one line of results.
    public let writeLine: @Sendable (String) -> Void
    /// Writes one line about a failure.
    public let writeErrorLine: @Sendable (String) -> Void

    /// Creates a sink from two line writers.
    /// - Parameters:
    ///   - writeLine: Receives each line of results, without a trailing newline.
    ///   - writeErrorLine: Receives each failure line, without a trailing newline.
    public init(writeLine: @escaping @Sendable (String) -> Void, writeErrorLine: @escaping @Sendable (String) -> Void) {
        self.writeLine = writeLine
        self.writeErrorLine = writeErrorLine
    }

    /// The process's standard output and standard error.
    public static let standard = OutputSink(
        writeLine: { print($0) },
        writeErrorLine: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    )
}
