/// The process exit statuses of `movies`, following BSD `sysexits.h` for usage errors.
public enum ExitCode: Int32, Sendable {
    /// Everything worked.
    case success = 0
    /// The request failed: a transport error, an error status from the API, an undecodable body.
    case failure = 1
    /// The command line was wrong (`EX_USAGE`).
    case usage = 64
}
