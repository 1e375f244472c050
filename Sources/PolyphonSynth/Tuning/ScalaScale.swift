/// A scale in the Scala format (`.scl`), the format microtonal musicians keep their scales in:
/// a description, a count, then one pitch per line above the unison (1/1, implied), the last
/// being the interval the scale repeats at (its "formal octave"). A pitch with a period is in
/// cents, otherwise it is a ratio (`3/2`) or a whole number (`2`, meaning 2/1). Lines beginning
/// with `!` are comments; anything after a pitch on its line is ignored.
///
/// Read from bytes, so it works wherever the engine does; a ``KeyboardMapping`` (`.kbm`) says
/// which key plays which degree, and ``Tuning/init(scale:keyboardMapping:)`` makes the tuning.
public struct ScalaScale: Equatable, Sendable {
    /// The scale's description line.
    public var description: String
    /// Each degree's pitch above the unison in cents, degree 1 first; the last is the period.
    public var degreeCents: [Double]
    /// What was odd but readable, by line.
    public var warnings: [ScalaFileWarning] = []

    /// The interval the scale repeats at, in cents.
    public var periodCents: Double { degreeCents.last ?? 1200 }
    /// Degrees per period.
    public var noteCount: Int { degreeCents.count }

    public init(description: String, degreeCents: [Double]) throws(ScalaFileError) {
        guard !degreeCents.isEmpty else { throw ScalaFileError(line: 0, reason: .noNotes) }
        guard let period = degreeCents.last, period > 0 else {
            throw ScalaFileError(line: 0, reason: .periodNotPositive)
        }
        self.description = description
        self.degreeCents = degreeCents
    }

    /// Reads a `.scl` file's bytes.
    public init(bytes: [UInt8]) throws(ScalaFileError) {
        var lines = ScalaLines(bytes)
        guard var (_, description) = lines.next(skippingBlank: false) else {
            throw ScalaFileError(line: lines.lineNumber, reason: .missingDescription)
        }
        guard var (countLine, countText) = lines.next(skippingBlank: true) else {
            throw ScalaFileError(line: lines.lineNumber, reason: .missingNoteCount)
        }
        var countField = ScalaLines.firstField(countText)
        // A blank line before the description is read as an empty description by the letter of
        // the format; when what follows is no count, it was the description.
        if description.isEmpty && ScalaNumber.wholeNumber(countField) == nil {
            description = countText
            guard let next = lines.next(skippingBlank: true) else {
                throw ScalaFileError(line: lines.lineNumber, reason: .missingNoteCount)
            }
            (countLine, countText) = next
            countField = ScalaLines.firstField(countText)
        }
        guard let count = ScalaNumber.wholeNumber(countField) else {
            throw ScalaFileError(line: countLine, reason: .invalidNoteCount(String(decoding: countField, as: UTF8.self)))
        }
        guard count > 0 else { throw ScalaFileError(line: countLine, reason: .noNotes) }
        var cents: [Double] = []
        var lastLine = countLine
        while cents.count < count, let (number, text) = lines.next(skippingBlank: true) {
            lastLine = number
            let field = ScalaLines.firstField(text)
            cents.append(try ScalaNumber.pitchCents(field, line: number))
        }
        guard cents.count == count else {
            throw ScalaFileError(line: lines.lineNumber, reason: .tooFewNotes(declared: count, found: cents.count))
        }
        var extra = 0
        while lines.next(skippingBlank: true) != nil { extra += 1 }
        guard let period = cents.last, period > 0 else {
            throw ScalaFileError(line: lastLine, reason: .periodNotPositive)
        }
        self.description = String(decoding: description, as: UTF8.self)
        degreeCents = cents
        if extra > 0 {
            warnings.append(ScalaFileWarning(line: lastLine + 1, message: "\(extra) line(s) after the \(count) pitches ignored"))
        }
        if count > 128 {
            warnings.append(ScalaFileWarning(line: countLine, message: "\(count) notes: 128 keys play at most 128 of them"))
        }
    }

    /// The pitch of any degree in cents above the unison: degree `d` lies `d ÷ count` periods
    /// up (down when negative), plus the pitch of degree `d mod count`.
    public func cents(ofDegree degree: Int) -> Double {
        let n = degreeCents.count
        let periods = degree >= 0 ? degree / n : -((-degree + n - 1) / n)
        let step = degree - periods * n
        return Double(periods) * periodCents + (step == 0 ? 0 : degreeCents[step - 1])
    }
}

/// Something odd in a Scala file that could still be read.
public struct ScalaFileWarning: Equatable, Sendable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    public var message: String
    public var description: String { "line \(line): \(message)" }
}

/// Why a Scala scale (`.scl`) or keyboard mapping (`.kbm`) file cannot be read.
public struct ScalaFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        /// The file ends before the scale's description line.
        case missingDescription
        /// The file ends before the number of notes.
        case missingNoteCount
        /// The note count is not a whole number.
        case invalidNoteCount(String)
        /// A scale of no notes has no period to repeat at.
        case noNotes
        /// Fewer pitch lines than the count declares.
        case tooFewNotes(declared: Int, found: Int)
        /// A pitch that is neither cents (with a period) nor a ratio.
        case invalidPitch(String)
        /// A ratio of zero, a negative ratio, or one over zero.
        case invalidRatio(String)
        /// The last degree (the period) must lie above the unison.
        case periodNotPositive
        /// A keyboard mapping ends before the named header field.
        case missingField(String)
        /// A keyboard mapping's field is not a number in its range.
        case invalidField(name: String, text: String)
        /// A mapping entry is neither a degree nor `x`.
        case invalidMappingEntry(String)
        /// The reference key is unmapped or outside the mapped keys: nothing fixes the pitch.
        case referenceKeyUnmapped(Int)
    }

    /// 1-based line number (the line after the last when the file ended too soon).
    public var line: Int
    public var reason: Reason

    public var description: String {
        let what: String
        switch reason {
        case .missingDescription: what = "the file ends before the description line"
        case .missingNoteCount: what = "the file ends before the number of notes"
        case .invalidNoteCount(let text): what = "'\(text)' is not a number of notes"
        case .noNotes: what = "the scale has no notes"
        case .tooFewNotes(let declared, let found): what = "\(declared) notes declared, \(found) found"
        case .invalidPitch(let text): what = "'\(text)' is neither cents nor a ratio"
        case .invalidRatio(let text): what = "'\(text)' is not a positive ratio"
        case .periodNotPositive: what = "the last degree (the period) must lie above the unison"
        case .missingField(let name): what = "the file ends before the \(name)"
        case .invalidField(let name, let text): what = "'\(text)' is not a valid \(name)"
        case .invalidMappingEntry(let text): what = "'\(text)' is neither a scale degree nor x"
        case .referenceKeyUnmapped(let key): what = "reference key \(key) plays no degree of the scale"
        }
        return "line \(line): \(what)"
    }
}

/// The lines of a Scala file: `!` comments skipped, carriage returns and surrounding spaces
/// removed, counted from 1.
struct ScalaLines {
    private let bytes: [UInt8]
    private var position = 0
    private(set) var lineNumber = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next line that is not a comment (nor blank, when asked), with its number.
    mutating func next(skippingBlank: Bool) -> (Int, ArraySlice<UInt8>)? {
        while position < bytes.count {
            var end = position
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            var line = bytes[position..<end]
            position = end + 1
            lineNumber += 1
            while let first = line.first, first == 0x20 || first == 0x09 { line = line.dropFirst() }
            while let last = line.last, last == 0x20 || last == 0x09 || last == 0x0D { line = line.dropLast() }
            if line.first == 0x21 { continue }  // "!"
            if skippingBlank && line.isEmpty { continue }
            return (lineNumber, line)
        }
        lineNumber += 1
        return nil
    }

    /// A line's first whitespace-separated field.
    static func firstField(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var end = line.startIndex
        while end < line.endIndex && line[end] != 0x20 && line[end] != 0x09 { end += 1 }
        return line[line.startIndex..<end]
    }
}

/// The numbers of Scala files, read without Foundation.
enum ScalaNumber {
    /// A whole number of up to nine digits.
    static func wholeNumber(_ text: ArraySlice<UInt8>) -> Int? { digits(text, atMost: 9).map { Int($0) } }

    /// The value of a run of decimal digits, nothing else, at most `limit` of them.
    static func digits(_ text: ArraySlice<UInt8>, atMost limit: Int) -> Double? {
        guard !text.isEmpty, text.count <= limit else { return nil }
        var value = 0.0
        for byte in text {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Double(byte - 0x30)
        }
        return value
    }

    /// A decimal number (sign, digits, a point, digits, an optional exponent).
    static func decimal(_ text: ArraySlice<UInt8>) -> Double? {
        var i = text.startIndex
        var negative = false
        if i < text.endIndex && (text[i] == 0x2D || text[i] == 0x2B) { negative = text[i] == 0x2D; i += 1 }
        var mantissa = 0.0, scale = 0, digits = 0, seenPoint = false
        while i < text.endIndex {
            let byte = text[i]
            if byte >= 0x30 && byte <= 0x39 {
                digits += 1
                if digits <= 17 { mantissa = mantissa * 10 + Double(byte - 0x30); if seenPoint { scale -= 1 } }
                else if !seenPoint { scale += 1 }
            } else if byte == 0x2E && !seenPoint {
                seenPoint = true
            } else {
                break
            }
            i += 1
        }
        guard digits > 0 else { return nil }
        if i < text.endIndex && (text[i] == 0x45 || text[i] == 0x65) {
            i += 1
            var exponentNegative = false
            if i < text.endIndex && (text[i] == 0x2D || text[i] == 0x2B) { exponentNegative = text[i] == 0x2D; i += 1 }
            guard let exponent = wholeNumber(text[i..<text.endIndex]), exponent < 400 else { return nil }
            scale += exponentNegative ? -exponent : exponent
            i = text.endIndex
        }
        guard i == text.endIndex else { return nil }
        let value = mantissa * Math.pow(10, Double(scale))
        guard value.isFinite else { return nil }
        return negative ? -value : value
    }

    /// A pitch field in cents: cents when it has a point, else a ratio or a whole number.
    static func pitchCents(_ field: ArraySlice<UInt8>, line: Int) throws(ScalaFileError) -> Double {
        let text = String(decoding: field, as: UTF8.self)
        if field.contains(0x2E) {
            guard let cents = decimal(field), cents.magnitude < 1e6 else {
                throw ScalaFileError(line: line, reason: .invalidPitch(text))
            }
            return cents
        }
        let parts = field.split(separator: 0x2F, maxSplits: 1, omittingEmptySubsequences: false)
        guard let numerator = parts.first.flatMap(ratioTerm) else {
            throw ScalaFileError(line: line, reason: field.first == 0x2D ? .invalidRatio(text) : .invalidPitch(text))
        }
        var denominator = 1.0
        if parts.count == 2 {
            guard let d = ratioTerm(parts[1]) else { throw ScalaFileError(line: line, reason: .invalidPitch(text)) }
            denominator = d
        }
        guard numerator > 0 && denominator > 0 else { throw ScalaFileError(line: line, reason: .invalidRatio(text)) }
        return 1200 * Math.log2(numerator / denominator)
    }

    /// One side of a ratio: digits only (up to 18 of them).
    private static func ratioTerm(_ text: ArraySlice<UInt8>) -> Double? { digits(text, atMost: 18) }
}
