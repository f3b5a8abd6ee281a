/// Byte scans over a string's contiguous UTF-8 storage.
///
/// The generic algorithms on a `String.UTF8View` (`contains(_:)`, `allSatisfy(_:)`,
/// `elementsEqual(_:)`, `firstIndex(where:)`) resolve here to unspecialised copies in Foundation's
/// libraries, or step the view's index one byte at a time: about 25 instructions a byte, where a
/// loop over the storage takes a few. Each falls back to the view for a string without contiguous
/// storage (a bridged one).
extension String.UTF8View {
    /// Whether the text holds `byte`.
    func containsByte(_ byte: UInt8) -> Bool {
        firstByteOffset { $0 == byte } != nil
    }

    /// Whether every byte satisfies `predicate` (`true` for an empty text).
    func allBytes(_ predicate: (UInt8) -> Bool) -> Bool {
        firstByteOffset { !predicate($0) } == nil
    }

    /// The offset of the first byte that satisfies `predicate`, `nil` when none does.
    func firstByteOffset(where predicate: (UInt8) -> Bool) -> Int? {
        let found = withContiguousStorageIfAvailable { bytes -> Int? in
            for offset in bytes.indices where predicate(bytes[offset]) { return offset }
            return nil
        }
        if let found { return found }
        var offset = 0
        for byte in self {
            if predicate(byte) { return offset }
            offset += 1
        }
        return nil
    }

    /// Whether the two texts are the same bytes.
    func bytesEqual(_ other: String.UTF8View) -> Bool {
        let equal = withContiguousStorageIfAvailable { lhs in
            other.withContiguousStorageIfAvailable { rhs in
                lhs.count == rhs.count && (lhs.isEmpty || sameBytes(lhs, rhs))
            }
        }
        if let equal, let equal { return equal }
        return elementsEqual(other)
    }
}

extension String.UTF8View {
    /// Whether the two texts are the same bytes but for the case of ASCII letters.
    func bytesEqualIgnoringASCIICase(_ other: String.UTF8View) -> Bool {
        let equal = withContiguousStorageIfAvailable { lhs in
            other.withContiguousStorageIfAvailable { rhs in
                lhs.count == rhs.count && (lhs.isEmpty || sameBytesIgnoringASCIICase(lhs, rhs))
            }
        }
        if let equal, let equal { return equal }
        return elementsEqual(other, by: sameByteIgnoringASCIICase)
    }
}

/// Whether two buffers of the same count hold the same bytes but for the case of ASCII letters.
private func sameBytesIgnoringASCIICase(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
    for index in lhs.indices where !sameByteIgnoringASCIICase(lhs[index], rhs[index]) { return false }
    return true
}

/// Whether `a` and `b` are the same byte, or the same ASCII letter in either case.
private func sameByteIgnoringASCIICase(_ a: UInt8, _ b: UInt8) -> Bool {
    a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= 0x61 && (a | 0x20) <= 0x7A)
}

/// Whether two buffers of the same count hold the same bytes.
private func sameBytes(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
    for index in lhs.indices where lhs[index] != rhs[index] { return false }
    return true
}
