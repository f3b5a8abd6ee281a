/// Sends `count` requests with at most `inFlight` outstanding, each made by `request`.
/// - Returns: How many failed (`request` returned false).
public func sendRequests(count: Int, inFlight: Int, _ request: @escaping @Sendable () async -> Bool) async -> Int {
    await withTaskGroup(of: Bool.self, returning: Int.self) { group in
        var sent = 0
        var failures = 0
        while sent < min(inFlight, count) {
            group.addTask(operation: request)
            sent += 1
        }
        for await succeeded in group {
            if !succeeded { failures += 1 }
            if sent < count {
                group.addTask(operation: request)
                sent += 1
            }
        }
        return failures
    }
}
