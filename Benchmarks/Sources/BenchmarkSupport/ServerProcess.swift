import Foundation

/// The ``LoopbackServer`` running in a child process: this same executable, started again with
/// ``LoopbackServer/environmentKey`` set, so the server shares neither the client's CPU time nor its memory.
public final class ServerProcess {
    /// `http://127.0.0.1:<port>`.
    public let baseURL: String
    private let process: Process
    private let input: Pipe

    /// Starts the server and waits until it has printed its port.
    public init() throws {
        guard let executable = Bundle.main.executableURL else { throw ServerError.noExecutable }
        let process = Process()
        process.executableURL = executable
        process.arguments = []
        process.environment = ProcessInfo.processInfo.environment.merging([LoopbackServer.environmentKey: "1"]) { $1 }
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while line.last != UInt8(ascii: "\n") {
            guard let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty else {
                throw ServerError.noPort
            }
            line += byte
        }
        guard let port = UInt16(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ServerError.noPort
        }
        self.process = process
        self.input = input
        baseURL = "http://127.0.0.1:\(port)"
    }

    /// Stops the server: closing its standard input ends it; it is killed if it lingers.
    public func stop() {
        try? input.fileHandleForWriting.close()
        for _ in 0..<50 where process.isRunning {
            usleep(10_000)
        }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    enum ServerError: Error {
        case noExecutable
        case noPort
    }
}
