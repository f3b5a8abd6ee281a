import Foundation
import TestSupport
import Testing

/// `Locked` hands its value to whichever thread takes the lock, so it must refuse a value that is
/// not `Sendable` at compile time. The compiler itself is the witness: the same small program is
/// type-checked against `Locked`'s source with a `Sendable` value and with a non-`Sendable` one.
@Suite("Locked")
struct LockedSendabilityTests {
    private static let lockedSource = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/NetworkLayer/Support/Locked.swift")

    /// Type-checks `Locked.swift` with a program that stores `type` in a `Locked`; returns the
    /// compiler's exit status and what it printed.
    private static func typeCheck(storing type: String, declaring declaration: String) throws -> (status: Int32, output: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locked-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let program = directory.appendingPathComponent("main.swift")
        try "\(declaration)\nlet box = Locked(\(type)())\nprint(box.withLock { _ in 1 })\n".write(
            to: program, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-package-name", "check", lockedSource.path, program.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test("accepts a Sendable value and refuses one that is not, at compile time")
    func refusesNonSendable() async throws {
        let accepted = try await onOwnThread {
            try Self.typeCheck(storing: "Counter", declaring: "struct Counter: Sendable { var count = 0 }")
        }
        #expect(accepted.status == 0, "\(accepted.output)")
        let refused = try await onOwnThread {
            try Self.typeCheck(storing: "Handle", declaring: "final class Handle { var count = 0 }")
        }
        #expect(refused.status != 0)
        #expect(
            refused.output.contains("'Handle' conform to the 'Sendable' protocol")
                || refused.output.contains("does not conform to the 'Sendable' protocol"), "\(refused.output)")
    }
}
