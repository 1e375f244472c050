/// Where a statement of an SFZ instrument was written: the file (the root `.sfz` or a file it
/// `#include`s) and the line, counted from 1.
public struct SFZLocation: Hashable, Sendable, CustomStringConvertible {
    /// The file, as the reader reached it (the root path, or an include resolved against it).
    public var file: String
    /// The line, counted from 1.
    public var line: Int

    /// A location in `file` at `line`.
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// `file:line`, the form compilers and editors understand.
    public var description: String { "\(file):\(line)" }
}
