extension String.UTF8View {
    /// Whether the text holds `byte`, found in its contiguous storage: `contains(_:)`, or a loop over
    /// the view, costs about 27 instructions a byte here, a loop over the storage a few.
    func containsByte(_ byte: UInt8) -> Bool {
        let found = withContiguousStorageIfAvailable { bytes in
            for index in bytes.indices where bytes[index] == byte { return true }
            return false
        }
        if let found { return found }
        for element in self where element == byte { return true }
        return false
    }
}
