/// What an audio file says about playing it in a sampler: the key it was recorded at and its
/// loops — a WAV file's `smpl` chunk, an AIFF file's `INST` and `MARK` chunks, or what
/// libsndfile reports for other formats.
public struct AudioFileInstrument: Sendable, Equatable {
    /// The MIDI key at which the sample plays at its recorded pitch, when given.
    public var rootKey: UInt8?
    /// Cents to add to the root key's pitch (`smpl`'s pitch fraction, `INST`'s detune).
    public var fineTune: Double
    /// The loops, in file order (samplers play the first).
    public var loops: [AudioFileLoop]

    /// Sampler information with every field given.
    public init(rootKey: UInt8?, fineTune: Double = 0, loops: [AudioFileLoop] = []) {
        self.rootKey = rootKey
        self.fineTune = fineTune
        self.loops = loops
    }
}

/// A loop stored in an audio file, in frames.
public struct AudioFileLoop: Sendable, Equatable {
    /// How the loop plays.
    public enum Mode: Sendable, Equatable {
        case forward, alternating, backward
    }

    /// The first frame of the loop.
    public var start: Int
    /// One past the last frame of the loop (WAV's `smpl` stores the last frame itself; it is
    /// converted on reading, as libsndfile does).
    public var end: Int
    /// How it plays.
    public var mode: Mode

    /// A loop over `start..<end`.
    public init(start: Int, end: Int, mode: Mode = .forward) {
        self.start = start
        self.end = end
        self.mode = mode
    }
}

extension AudioFileInstrument {
    /// The most loops read from one file (libsndfile's and sfizz's limit).
    static let maximumLoops = 16

    /// A WAV `smpl` chunk: MIDI unity note at body offset 12, pitch fraction at 16 (a fraction
    /// of a semitone in 32 bits), loop count at 28, loops of 24 bytes from 36 (type, first frame,
    /// last frame). A chunk too short for its header is ignored; loops past its end are dropped.
    static func samplerChunk(_ body: ArraySlice<UInt8>) -> AudioFileInstrument? {
        let bytes = Array(body)
        func u32(_ offset: Int) -> UInt32? {
            guard offset >= 0, offset + 4 <= bytes.count else { return nil }
            return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
                | UInt32(bytes[offset + 3]) << 24
        }
        guard let unity = u32(12), let fraction = u32(16), let loopCount = u32(28) else { return nil }
        var loops: [AudioFileLoop] = []
        for index in 0..<Int(min(loopCount, UInt32(maximumLoops))) {
            let base = 36 + index * 24
            guard let type = u32(base + 4), let first = u32(base + 8), let last = u32(base + 12) else { break }
            let mode: AudioFileLoop.Mode
            switch type {
            case 0: mode = .forward
            case 1: mode = .alternating
            case 2: mode = .backward
            default: continue
            }
            loops.append(AudioFileLoop(start: Int(first), end: Int(last) + 1, mode: mode))
        }
        return AudioFileInstrument(rootKey: unity <= 127 ? UInt8(unity) : nil,
                                   fineTune: Double(fraction) * 100 / 4_294_967_296, loops: loops)
    }

    /// AIFF `INST` (20 bytes: base note, detune, key and velocity ranges, gain, then the sustain
    /// and release loops as play mode and begin/end marker ids) with the marker positions of
    /// `MARK`. A loop whose play mode is 0 or whose markers are missing is not a loop.
    static func aiff(instrument body: ArraySlice<UInt8>, markers: [UInt16: Int]) -> AudioFileInstrument? {
        let bytes = Array(body)
        guard bytes.count >= 20 else { return nil }
        func u16(_ offset: Int) -> UInt16 { UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1]) }
        var loops: [AudioFileLoop] = []
        for base in [8, 14] {
            let mode: AudioFileLoop.Mode
            switch u16(base) {
            case 1: mode = .forward
            case 2: mode = .alternating
            default: continue
            }
            guard let start = markers[u16(base + 2)], let end = markers[u16(base + 4)], end > start else { continue }
            loops.append(AudioFileLoop(start: start, end: end, mode: mode))
        }
        return AudioFileInstrument(rootKey: bytes[0] <= 127 ? bytes[0] : nil, fineTune: Double(Int8(bitPattern: bytes[1])),
                                   loops: loops)
    }

    /// AIFF `MARK`: marker count, then id (2), position (4) and a Pascal string padded to an
    /// even length, per marker. Stops at the first marker that does not fit.
    static func aiffMarkers(_ body: ArraySlice<UInt8>) -> [UInt16: Int] {
        let bytes = Array(body)
        guard bytes.count >= 2 else { return [:] }
        let count = Int(UInt16(bytes[0]) << 8 | UInt16(bytes[1]))
        var markers: [UInt16: Int] = [:]
        var offset = 2
        for _ in 0..<count {
            guard offset + 7 <= bytes.count else { break }
            let id = UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
            let position = Int(UInt32(bytes[offset + 2]) << 24 | UInt32(bytes[offset + 3]) << 16
                               | UInt32(bytes[offset + 4]) << 8 | UInt32(bytes[offset + 5]))
            let nameLength = Int(bytes[offset + 6])
            markers[id] = position
            // id + position + count byte + name, padded so the count byte and name are even.
            offset += 6 + 1 + nameLength + ((1 + nameLength) % 2)
        }
        return markers
    }
}
