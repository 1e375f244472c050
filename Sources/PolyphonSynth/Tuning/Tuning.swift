/// A tuning of the 128 MIDI keys: the pitch each key plays, in cents above MIDI key 0
/// (8.176 Hz), as the MIDI Tuning Standard gives it — in twelve-tone equal temperament key
/// `k` is `100 × k` cents.
///
/// Make one from 128 pitches (``init(keyCents:name:)``), from twelve pitch-class offsets
/// repeated in every octave (``init(pitchClassOffsets:name:)``, the MIDI scale/octave form), or
/// from a Scala scale and keyboard mapping (``init(scale:keyboardMapping:)``); hand it to
/// ``Synthesizer/setTuning(_:program:bank:retuningSoundingNotes:)`` as a tuning program and
/// select it on a channel with ``Synthesizer/selectTuning(program:bank:onChannel:atFrame:)``, or
/// give it to ``SynthesizerConfiguration/tuning`` to play every melodic channel in it.
public struct Tuning: Hashable, Sendable {
    /// The pitch of every key, in cents above 8.176 Hz: 128 values.
    public private(set) var keyCents: [Double]
    /// A label (the MIDI Tuning Standard carries 16 ASCII characters of it).
    public var name: String

    /// Twelve-tone equal temperament: key `k` at `100 × k` cents, A4 (key 69) at 440 Hz.
    public static let equalTemperament = Tuning(checkedKeyCents: (0..<128).map { 100 * Double($0) },
                                                name: "Equal temperament")

    /// The frequency of MIDI key 0 in equal temperament, the origin of every pitch here:
    /// 440 Hz × 2^(−69/12).
    public static let keyZeroFrequency = 8.175_798_915_643_707

    /// The highest pitch a tuning may give a key, in cents: two octaves above the MIDI Tuning
    /// Standard's own ceiling (127.99 semitones), far beyond hearing. Lower bound its negative.
    public static let centsLimit = 15_200.0

    /// A tuning from the pitch of each of the 128 keys, in cents above 8.176 Hz.
    public init(keyCents: [Double], name: String = "") throws(TuningError) {
        guard keyCents.count == 128 else { throw TuningError.wrongKeyCount(keyCents.count) }
        for (key, cents) in keyCents.enumerated() where !(cents.magnitude <= Self.centsLimit) {
            throw TuningError.pitchOutOfRange(key: key, cents: cents)
        }
        self.init(checkedKeyCents: keyCents, name: name)
    }

    /// A tuning that moves each of the twelve pitch classes (C, C♯, … B) by the same number of
    /// cents in every octave, as the MIDI scale/octave tuning message does: `offsets[0]` moves
    /// every C, `offsets[9]` every A.
    public init(pitchClassOffsets offsets: [Double], name: String = "") throws(TuningError) {
        guard offsets.count == 12 else { throw TuningError.wrongPitchClassCount(offsets.count) }
        for (pitchClass, cents) in offsets.enumerated() where !(cents.magnitude <= 1200) {
            throw TuningError.pitchOutOfRange(key: pitchClass, cents: cents)
        }
        self.init(checkedKeyCents: (0..<128).map { 100 * Double($0) + offsets[$0 % 12] }, name: name)
    }

    init(checkedKeyCents: [Double], name: String) {
        keyCents = checkedKeyCents
        self.name = name
    }

    /// The pitch of `key` (0…127) in cents above 8.176 Hz.
    public func cents(ofKey key: Int) -> Double { keyCents[min(max(key, 0), 127)] }

    /// The frequency of `key` (0…127) in hertz.
    public func frequency(ofKey key: Int) -> Double {
        Self.keyZeroFrequency * Math.pow(2, cents(ofKey: key) / 1200)
    }

    /// How far `key` lies from its equal-tempered pitch, in cents.
    public func deviation(ofKey key: Int) -> Double { cents(ofKey: key) - 100 * Double(min(max(key, 0), 127)) }

    /// Sets the pitch of one key, in cents above 8.176 Hz.
    public mutating func setCents(_ cents: Double, forKey key: Int) throws(TuningError) {
        guard (0...127).contains(key) else { throw TuningError.keyOutOfRange(key) }
        guard cents.magnitude <= Self.centsLimit else { throw TuningError.pitchOutOfRange(key: key, cents: cents) }
        keyCents[key] = cents
    }

    /// True when every key plays its equal-tempered pitch (to a thousandth of a cent).
    public var isEqualTemperament: Bool {
        keyCents.enumerated().allSatisfy { ($0.element - 100 * Double($0.offset)).magnitude < 0.001 }
    }
}

/// Why a ``Tuning`` could not be made.
public enum TuningError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A key tuning needs exactly 128 pitches.
    case wrongKeyCount(Int)
    /// A scale/octave tuning needs exactly 12 offsets.
    case wrongPitchClassCount(Int)
    /// A key (or pitch class) was given a pitch that is not a number or lies beyond
    /// ±``Tuning/centsLimit`` cents (±1200 for a pitch-class offset).
    case pitchOutOfRange(key: Int, cents: Double)
    /// Keys are 0…127.
    case keyOutOfRange(Int)

    public var description: String {
        switch self {
        case .wrongKeyCount(let n): return "a key tuning has 128 pitches, not \(n)"
        case .wrongPitchClassCount(let n): return "a scale/octave tuning has 12 offsets, not \(n)"
        case .pitchOutOfRange(let key, let cents): return "key \(key): pitch \(cents) cents is out of range"
        case .keyOutOfRange(let key): return "key \(key) is not a MIDI key (0…127)"
        }
    }
}
