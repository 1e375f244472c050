extension UnsafeMutablePointer {
    /// `count` elements allocated and each set to `value`: the engine allocates its state once,
    /// up front, so rendering never does. Deallocate as usual.
    static func allocate(filledWith value: Pointee, count: Int) -> UnsafeMutablePointer<Pointee> {
        let p = allocate(capacity: count)
        p.initialize(repeating: value, count: count)
        return p
    }
}
