/// A Scala keyboard mapping (`.kbm`): which MIDI key plays which degree of a ``ScalaScale``,
/// and which key sounds at which frequency.
///
/// The file holds, one per line (`!` comments allowed): the size of the mapping pattern, the
/// first and last key to retune, the middle key (where degree 0 — the pattern's first entry —
/// sits), the reference key and its frequency in hertz, the degree the pattern repeats at (its
/// "formal octave"), then one entry per key of the pattern: a degree, or `x` for a key that
/// plays none. A pattern of size 0 maps key after key onto degree after degree.
public struct KeyboardMapping: Equatable, Sendable {
    /// Keys in one repetition of the pattern (0: every key plays the next degree).
    public var patternSize: Int
    /// Keys outside `firstKey…lastKey` keep their equal-tempered pitch.
    public var firstKey: Int
    public var lastKey: Int
    /// The key that plays degree 0 of the scale (the pattern's first entry).
    public var middleKey: Int
    /// The key whose frequency is given.
    public var referenceKey: Int
    public var referenceFrequency: Double
    /// The degree the pattern repeats at (0: the scale's period).
    public var octaveDegree: Int
    /// The degree each key of the pattern plays, nil for a key that plays none.
    public var entries: [Int?]
    /// What was odd but readable, by line.
    public var warnings: [ScalaFileWarning] = []

    /// Scala's linear mapping with C4 at its equal-tempered pitch: key 60 plays degree 0 at
    /// 261.626 Hz and every other key the next degree, so a twelve-tone equal scale gives the
    /// MIDI pitches exactly.
    public static let standard = KeyboardMapping(patternSize: 0, firstKey: 0, lastKey: 127, middleKey: 60,
                                                 referenceKey: 60, referenceFrequency: 261.625_565_300_598_6,
                                                 octaveDegree: 0, entries: [])

    public init(patternSize: Int, firstKey: Int, lastKey: Int, middleKey: Int, referenceKey: Int,
                referenceFrequency: Double, octaveDegree: Int, entries: [Int?]) {
        self.patternSize = patternSize
        self.firstKey = firstKey
        self.lastKey = lastKey
        self.middleKey = middleKey
        self.referenceKey = referenceKey
        self.referenceFrequency = referenceFrequency
        self.octaveDegree = octaveDegree
        self.entries = entries
    }

    /// Reads a `.kbm` file's bytes.
    public init(bytes: [UInt8]) throws(ScalaFileError) {
        var lines = ScalaLines(bytes)
        func field(_ name: String) throws(ScalaFileError) -> (line: Int, text: ArraySlice<UInt8>) {
            guard let (line, text) = lines.next(skippingBlank: true) else {
                throw ScalaFileError(line: lines.lineNumber, reason: .missingField(name))
            }
            return (line, ScalaLines.firstField(text))
        }
        func whole(_ name: String, in range: ClosedRange<Int>) throws(ScalaFileError) -> Int {
            let (line, text) = try field(name)
            guard let value = ScalaNumber.wholeNumber(text), range.contains(value) else {
                throw ScalaFileError(line: line, reason: .invalidField(name: name, text: String(decoding: text, as: UTF8.self)))
            }
            return value
        }
        patternSize = try whole("pattern size", in: 0...128)
        firstKey = try whole("first key", in: 0...127)
        lastKey = try whole("last key", in: 0...127)
        middleKey = try whole("middle key", in: 0...127)
        referenceKey = try whole("reference key", in: 0...127)
        let (frequencyLine, frequencyText) = try field("reference frequency")
        guard let frequency = ScalaNumber.decimal(frequencyText), frequency > 0, frequency < 1e6 else {
            throw ScalaFileError(line: frequencyLine, reason: .invalidField(
                name: "reference frequency", text: String(decoding: frequencyText, as: UTF8.self)))
        }
        referenceFrequency = frequency
        octaveDegree = try whole("octave degree", in: 0...100_000)
        entries = []
        var lastLine = frequencyLine
        while entries.count < patternSize, let (line, text) = lines.next(skippingBlank: true) {
            lastLine = line
            let entry = ScalaLines.firstField(text)
            if entry.first == 0x78 || entry.first == 0x58 {  // "x"
                entries.append(nil)
            } else if let degree = ScalaNumber.wholeNumber(entry) {
                entries.append(degree)
            } else {
                throw ScalaFileError(line: line, reason: .invalidMappingEntry(String(decoding: entry, as: UTF8.self)))
            }
        }
        if entries.count < patternSize {
            warnings.append(ScalaFileWarning(line: lastLine,
                                             message: "\(patternSize) keys in the pattern, \(entries.count) mapped: the rest play no degree"))
            entries += [Int?](repeating: nil, count: patternSize - entries.count)
        }
        if firstKey > lastKey {
            warnings.append(ScalaFileWarning(line: 0, message: "first key \(firstKey) lies above last key \(lastKey): no key is retuned"))
        }
    }

    /// Where `key` falls: how many repetitions of the pattern it lies from the middle key, and
    /// the degree its entry names (with a linear mapping: no repetitions, the degree is the
    /// distance from the middle key); nil when it plays none (outside the retuned keys, or an `x`).
    func entry(ofKey key: Int) -> (repeats: Int, degree: Int)? {
        guard key >= firstKey && key <= lastKey else { return nil }
        let distance = key - middleKey
        guard patternSize > 0 else { return (0, distance) }
        let repeats = distance >= 0 ? distance / patternSize : -((-distance + patternSize - 1) / patternSize)
        guard let degree = entries[distance - repeats * patternSize] else { return nil }
        return (repeats, degree)
    }
}

extension Tuning {
    /// The tuning a Scala scale gives the keys under a keyboard mapping (by default Scala's
    /// linear one with key 60 at 261.626 Hz). Keys the mapping leaves out keep their
    /// equal-tempered pitch.
    public init(scale: ScalaScale, keyboardMapping mapping: KeyboardMapping = .standard) throws(ScalaFileError) {
        // Each repetition of the pattern moves up by the pitch of its octave degree (the
        // scale's period unless the mapping names another).
        let repeatCents = scale.cents(ofDegree: mapping.octaveDegree > 0 ? mapping.octaveDegree : scale.noteCount)
        func relativeCents(_ key: Int) -> Double? {
            guard let (repeats, degree) = mapping.entry(ofKey: key) else { return nil }
            return Double(repeats) * repeatCents + scale.cents(ofDegree: degree)
        }
        guard let reference = relativeCents(mapping.referenceKey) else {
            throw ScalaFileError(line: 0, reason: .referenceKeyUnmapped(mapping.referenceKey))
        }
        let referenceCents = 1200 * Math.log2(mapping.referenceFrequency / Tuning.keyZeroFrequency)
        var keys = [Double](repeating: 0, count: 128)
        for key in 0..<128 {
            let cents = relativeCents(key).map { referenceCents + $0 - reference } ?? 100 * Double(key)
            keys[key] = min(max(cents, -Tuning.centsLimit), Tuning.centsLimit)
        }
        self.init(checkedKeyCents: keys, name: scale.description)
    }
}
