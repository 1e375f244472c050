/// Turns SFZ text into statements: skips comments, honours `#define` and `#include`, expands
/// `$VARIABLE`s, and splits `name=value` pairs where sfizz splits them (a value runs to the end
/// of the line, or to the next `name=`, `<header>` or directive, so sample paths may hold
/// spaces).
///
/// Never fails on the text itself: what it cannot read becomes an ``SFZWarning`` and the reader
/// carries on at the next line, as sfizz does. The work is bounded by ``SFZReadingLimits``: the
/// include depth, each file's size, and all text taken in (every inclusion and expansion
/// counted), so no input makes it loop or allocate without end.
struct SFZStatementReader {
    let fileSystem: any SFZFileSystem
    let limits: SFZReadingLimits

    private(set) var statements: [SFZStatement] = []
    private(set) var warnings: [SFZWarning] = []
    private var definitions = SFZDefinitions()
    private var stack: [SFZTextCursor] = []
    private var rootDirectory = ""
    private var textBudget: Int
    private var budgetExhausted = false

    init(fileSystem: any SFZFileSystem, limits: SFZReadingLimits) {
        self.fileSystem = fileSystem
        self.limits = limits
        textBudget = limits.maximumTotalText
    }

    /// Reads the root file `path` and everything it includes.
    /// - Throws: ``SFZError`` when the root file cannot be read.
    mutating func read(rootPath path: String) throws(SFZError) {
        let wanted = SFZPath.normalized(path)
        guard let resolved = fileSystem.resolve(wanted) else {
            throw SFZError(path: path, kind: .cannotRead("no such file"))
        }
        let bytes: [UInt8]
        do {
            bytes = try fileSystem.contents(of: resolved, limit: min(limits.maximumFileSize, textBudget))
        } catch {
            throw SFZError(path: path, kind: .cannotRead(error.reason))
        }
        if let why = SFZInstrument.binaryContent(bytes) { throw SFZError(path: path, kind: .notSFZ(why)) }
        textBudget -= bytes.count
        rootDirectory = SFZPath.directory(of: resolved)
        stack = [SFZTextCursor(path: resolved, bytes: bytes)]
        readAll()
    }

    /// Reads statements from `text` as if it were the file `path` (which need not exist; its
    /// directory anchors `#include`s).
    mutating func read(text: [UInt8], path: String) {
        let normalized = SFZPath.normalized(path)
        rootDirectory = SFZPath.directory(of: normalized)
        textBudget -= text.count
        stack = [SFZTextCursor(path: normalized, bytes: text)]
        readAll()
    }

    // MARK: The top level

    private mutating func readAll() {
        while !stack.isEmpty {
            skipSpaceAndComments()
            guard let byte = stack[stack.count - 1].peek() else {
                stack.removeLast()
                continue
            }
            switch byte {
            case UInt8(ascii: "#"): readDirective()
            case UInt8(ascii: "<"): readHeader()
            default: readOpcode()
            }
        }
    }

    private mutating func warn(_ kind: SFZWarning.Kind, _ location: SFZLocation?, _ message: String) {
        warnings.append(SFZWarning(kind, at: location, message))
    }

    /// Syntax error: warn, skip the rest of the line.
    private mutating func recover(_ location: SFZLocation, _ message: String) {
        warn(.syntax, location, message)
        stack[stack.count - 1].skipLine()
    }

    private mutating func skipSpaceAndComments() {
        while true {
            stack[stack.count - 1].take { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }
            let cursor = stack[stack.count - 1]
            guard cursor.peek() == UInt8(ascii: "/"), let next = cursor.peek(1) else { return }
            if next == UInt8(ascii: "/") {
                stack[stack.count - 1].take { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
            } else if next == UInt8(ascii: "*") {
                let start = cursor.location
                stack[stack.count - 1].advance()
                stack[stack.count - 1].advance()
                var previous: UInt8 = 0
                var closed = false
                while let byte = stack[stack.count - 1].peek() {
                    stack[stack.count - 1].advance()
                    if previous == UInt8(ascii: "*") && byte == UInt8(ascii: "/") {
                        closed = true
                        break
                    }
                    previous = byte
                }
                if !closed { warn(.syntax, start, "block comment /* is never closed with */") }
            } else {
                return
            }
        }
    }

    // MARK: Directives

    private mutating func readDirective() {
        let start = stack[stack.count - 1].location
        stack[stack.count - 1].advance()  // '#'
        let directive = String(decoding: stack[stack.count - 1].take { $0.isSFZIdentifierByte }, as: UTF8.self)
        switch directive {
        case "define":
            stack[stack.count - 1].take { $0.isSFZSpace }
            guard stack[stack.count - 1].take(UInt8(ascii: "$")) else {
                return recover(start, "#define must be followed by $NAME")
            }
            let name = Array(stack[stack.count - 1].take { $0.isSFZIdentifierByte })
            guard !name.isEmpty else { return recover(start, "#define must be followed by $NAME") }
            stack[stack.count - 1].take { $0.isSFZSpace }
            // ARIA (and sfizz): the value is the first word; the rest of the line is read on.
            let mark = stack[stack.count - 1].mark
            let value = Array(stack[stack.count - 1].takeToEndOfLine().prefix { !$0.isSFZSpace })
            stack[stack.count - 1].reset(to: mark)
            for _ in 0..<value.count { stack[stack.count - 1].advance() }
            definitions.define(name, as: value)
        case "include":
            stack[stack.count - 1].take { $0.isSFZSpace }
            guard stack[stack.count - 1].take(UInt8(ascii: "\"")) else {
                return recover(start, "#include must be followed by a quoted file name: #include \"file.sfz\"")
            }
            let raw = stack[stack.count - 1].take { $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
            guard stack[stack.count - 1].take(UInt8(ascii: "\"")) else {
                return recover(start, "#include \"… is missing its closing quote")
            }
            guard let expanded = expand(raw, at: start) else { return }
            include(text(expanded), at: start)
        default:
            recover(start, directive.isEmpty ? "'#' must start #define or #include" : "unknown directive #\(directive) (only #define and #include exist)")
        }
    }

    /// `#include "name"`: relative to the including file, or failing that to the root file's
    /// directory (sfizz and ARIA resolve every include against the root).
    private mutating func include(_ name: String, at location: SFZLocation) {
        let written = name.replacingBackslashes()
        let including = stack[stack.count - 1].path
        var candidates = [SFZPath.join(SFZPath.directory(of: including), written)]
        let fromRoot = SFZPath.join(rootDirectory, written)
        if fromRoot != candidates[0] { candidates.append(fromRoot) }
        let fileSystem = self.fileSystem
        guard let resolved = candidates.lazy.compactMap({ fileSystem.resolve($0) }).first else {
            return warn(.directive, location, "#include \"\(name)\": no such file (looked for \(candidates.joined(separator: " and ")))")
        }
        if stack.contains(where: { $0.path == resolved }) {
            let chain = stack.map { $0.path } + [resolved]
            return warn(.directive, location, "#include \"\(name)\" would include a file inside itself (\(chain.joined(separator: " → "))); skipped")
        }
        guard stack.count < limits.maximumIncludeDepth else {
            return warn(.limitReached, location, "#include \"\(name)\": includes nested deeper than \(limits.maximumIncludeDepth) levels; skipped")
        }
        guard textBudget > 0 else { return exhaustBudget(at: location) }
        let bytes: [UInt8]
        do {
            bytes = try fileSystem.contents(of: resolved, limit: min(limits.maximumFileSize, textBudget))
        } catch {
            if textBudget < limits.maximumFileSize { return exhaustBudget(at: location) }
            return warn(.directive, location, "#include \"\(name)\": cannot read \(resolved) (\(error.reason))")
        }
        textBudget -= bytes.count
        stack.append(SFZTextCursor(path: resolved, bytes: bytes))
    }

    /// Out of text budget: stop reading everything.
    private mutating func exhaustBudget(at location: SFZLocation) {
        if !budgetExhausted {
            warn(.limitReached, location, "the instrument's text (with every #include and $variable counted) exceeds \(limits.maximumTotalText) bytes; the rest is not read")
        }
        budgetExhausted = true
        stack.removeAll()
    }

    // MARK: Headers

    private mutating func readHeader() {
        let start = stack[stack.count - 1].location
        stack[stack.count - 1].advance()  // '<'
        let name = stack[stack.count - 1].take { $0 != UInt8(ascii: ">") && $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
        guard stack[stack.count - 1].take(UInt8(ascii: ">")) else {
            return recover(start, "header <\(text(name)) is missing its closing '>'")
        }
        guard !name.isEmpty, name.allSatisfy({ $0.isSFZIdentifierByte }) else {
            return recover(start, "<\(text(name))> is not a header name (letters, digits and '_' only)")
        }
        statements.append(SFZStatement(.header(String(decoding: name, as: UTF8.self)), at: start))
    }

    // MARK: Opcodes

    private mutating func readOpcode() {
        let start = stack[stack.count - 1].location
        let rawName = stack[stack.count - 1].take { $0.isSFZIdentifierByte || $0 == UInt8(ascii: "$") }
        guard !rawName.isEmpty else {
            let byte = stack[stack.count - 1].peek() ?? 0
            let shown = byte >= 0x20 && byte < 0x7F ? "'\(String(UnicodeScalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
            return recover(start, "expected an opcode name (name=value), found \(shown); rest of the line skipped")
        }
        guard stack[stack.count - 1].peek() == UInt8(ascii: "=") else {
            return recover(start, "'\(text(rawName))' is not followed by '=' (opcodes are written name=value)")
        }
        guard let name = expand(rawName, at: start) else { return stack[stack.count - 1].skipLine() }
        guard !name.isEmpty, name.allSatisfy({ $0.isSFZIdentifierByte }) else {
            return recover(start, "'\(text(name))' is not an opcode name (letters, digits and '_' only)")
        }
        stack[stack.count - 1].advance()  // '='

        // Embedded sample data runs to the next header or directive, comments included.
        if name == Array("base64data".utf8) {
            let raw = stack[stack.count - 1].take { $0 != UInt8(ascii: "<") && $0 != UInt8(ascii: "#") }
            statements.append(SFZStatement(.opcode(name: text(name), value: text(raw[...].trimmingSFZSpace())), at: start))
            return
        }

        let lineStart = stack[stack.count - 1].mark
        let line = stack[stack.count - 1].takeToEndOfLine()
        let end = Self.valueEnd(in: line)
        if end < line.count {
            // Read too far: the next opcode, header or directive starts at `end`.
            stack[stack.count - 1].reset(to: lineStart)
            for _ in 0..<end { stack[stack.count - 1].advance() }
        }
        let rawValue = line.prefix(end)
        guard let value = expand(rawValue, at: start) else { return }
        statements.append(SFZStatement(.opcode(name: text(name), value: text(value[...].trimmingSFZSpace())), at: start))
    }

    /// Where the value at the start of `line` ends, by sfizz's rule: at a `<`, or at spaces
    /// followed by a `<`, a `#define`/`#include`, a `name=`, or nothing.
    static func valueEnd(in line: ArraySlice<UInt8>) -> Int {
        let bytes = Array(line)
        let count = bytes.count
        var end = 0
        while end < count {
            var i = end + 1
            if bytes[end] == UInt8(ascii: "<") { break }
            if bytes[end].isSFZSpace {
                while i < count && bytes[i].isSFZSpace { i += 1 }
                if i == count { break }
                if bytes[i] == UInt8(ascii: "<") { break }
                if bytes[i] == UInt8(ascii: "#") {
                    var j = i + 1
                    while j < count && bytes[j].isSFZIdentifierByte { j += 1 }
                    let directive = bytes[(i + 1)..<j]
                    if directive.elementsEqual("define".utf8) || directive.elementsEqual("include".utf8) { break }
                } else if bytes[i].isSFZIdentifierByte {
                    var j = i + 1
                    while j < count && (bytes[j].isSFZIdentifierByte || bytes[j] == UInt8(ascii: "$")) { j += 1 }
                    if j < count && bytes[j] == UInt8(ascii: "=") { break }
                    i = j
                }
            }
            end = i
        }
        return end
    }

    /// `$VARIABLE`s expanded; nil (with a warning) when the statement must be dropped.
    private mutating func expand(_ raw: ArraySlice<UInt8>, at location: SFZLocation) -> [UInt8]? {
        let expansion = definitions.expand(raw, maximumLength: limits.maximumExpandedLength)
        for problem in expansion.problems { warn(.directive, location, problem) }
        guard expansion.isComplete else { return nil }
        let growth = expansion.text.count - raw.count
        if growth > 0 {
            textBudget -= growth
            if textBudget < 0 {
                exhaustBudget(at: location)
                return nil
            }
        }
        return expansion.text
    }

    /// Bytes as text: UTF-8 when valid, else Latin-1 (libraries saved on Windows).
    private func text<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        SFZText.decode(Array(bytes))
    }
}

extension ArraySlice where Element == UInt8 {
    /// Without leading and trailing spaces, tabs and line breaks.
    func trimmingSFZSpace() -> ArraySlice<UInt8> {
        func isSpace(_ b: UInt8) -> Bool { b.isSFZSpace || b == UInt8(ascii: "\r") || b == UInt8(ascii: "\n") }
        var slice = self
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return slice
    }
}

extension String {
    /// With Windows `\` separators turned into `/`.
    func replacingBackslashes() -> String {
        String(decoding: utf8.map { $0 == UInt8(ascii: "\\") ? UInt8(ascii: "/") : $0 }, as: UTF8.self)
    }
}

/// Decoding the bytes of SFZ files, which are ASCII, UTF-8 or (from Windows) Latin-1.
public enum SFZText {
    /// `bytes` as UTF-8 when they are valid UTF-8, else as Latin-1 (every byte one character).
    public static func decode(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var scalars = String.UnicodeScalarView()
        for byte in bytes { scalars.append(Unicode.Scalar(byte)) }
        return String(scalars)
    }
}
