import Foundation
import PolyphonMIDI

/// What the jam page recorded: layers of MIDI messages, each stamped with the audio frame it
/// sounded on (from the start of the take) at the page's sample rate.
///
/// Every message the page's synthesizer heard is here, its setup (program change, drum part,
/// effect sends) included, so a native render of the take hears exactly what the page played.
/// The page sends it as JSON:
///
///     { "sampleRate": 48000, "tempo": 120, "beatsPerBar": 4, "reverb": true, "chorus": true,
///       "layers": [ { "name": "Acoustic Grand Piano", "events": [[0, 192, 0], [9600, 144, 60, 100], …] } ] }
///
/// where each event is `[frame, status, data…]` (a SysEx message is `[frame, 240, …, 247]`).
/// A song exported as it plays on the page also carries the song's ``TempoMap``, so the
/// exported file keeps its tempo changes and meters, and its notes (and a layer played along)
/// their bars and beats.
struct Take: Codable, Sendable, Equatable {
    /// A MIDI file's tempo changes on the take's frames, and its meters: what puts the take's
    /// frames on the song's ticks.
    struct TempoMap: Codable, Sendable, Equatable {
        struct Tempo: Codable, Sendable, Equatable {
            /// The take's frame the tempo starts on, and the song's tick there.
            var frame: Int64
            var tick: Int
            /// As played: the song's tempo divided by the page's tempo factor.
            var microsecondsPerQuarterNote: Double
        }
        struct Meter: Codable, Sendable, Equatable {
            var tick: Int
            var numerator: Int
            /// A power of two: 4 for quarter-note beats.
            var denominator: Int
        }
        var ticksPerQuarterNote: Int
        /// In order; the first on frame 0 and tick 0.
        var tempos: [Tempo]
        var meters: [Meter] = []
    }

    struct Layer: Codable, Sendable, Equatable {
        /// Shown as the MIDI track's name: the instrument, usually.
        var name: String
        /// `[frame, byte…]`: one complete MIDI message and the frame it plays on.
        var events: [[Int]]
    }

    var sampleRate: Double
    /// Beats per minute of the metronome (the MIDI file's tempo).
    var tempo: Double = 120
    /// The metronome's bar (the MIDI file's time signature numerator).
    var beatsPerBar: Int = 4
    var reverb: Bool = true
    var chorus: Bool = true
    var layers: [Layer]
    /// The song's tempo map, when the take is a song as the page plays it; else the file's tempo
    /// is ``tempo``.
    var tempoMap: TempoMap?

    init(sampleRate: Double, tempo: Double = 120, beatsPerBar: Int = 4, reverb: Bool = true, chorus: Bool = true,
         layers: [Layer]) {
        self.sampleRate = sampleRate
        self.tempo = tempo
        self.beatsPerBar = beatsPerBar
        self.reverb = reverb
        self.chorus = chorus
        self.layers = layers
    }

    /// `sampleRate` and `layers` are required; the rest default as above.
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        sampleRate = try c.decode(Double.self, forKey: .sampleRate)
        tempo = try c.decodeIfPresent(Double.self, forKey: .tempo) ?? 120
        beatsPerBar = try c.decodeIfPresent(Int.self, forKey: .beatsPerBar) ?? 4
        reverb = try c.decodeIfPresent(Bool.self, forKey: .reverb) ?? true
        chorus = try c.decodeIfPresent(Bool.self, forKey: .chorus) ?? true
        layers = try c.decode([Layer].self, forKey: .layers)
        tempoMap = try c.decodeIfPresent(TempoMap.self, forKey: .tempoMap)
    }

    /// A take checked against `limits`: every event a single MIDI message on a frame inside the
    /// take, the whole within its size. The message says what is wrong, in one line.
    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    /// One event of a checked take.
    struct Event: Sendable, Equatable {
        var frame: Int64
        var layer: Int
        var message: MIDIMessage
    }

    /// Reads and checks a take; throws ``Invalid`` naming the first problem.
    static func decode(_ data: Data, limits: JamLimits) throws(Invalid) -> (take: Take, events: [Event]) {
        let take: Take
        do {
            take = try JSONDecoder().decode(Take.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw Invalid(description: "not a take: \(context.debugDescription)")
        } catch let DecodingError.keyNotFound(key, _) {
            throw Invalid(description: "not a take: '\(key.stringValue)' is missing")
        } catch let DecodingError.typeMismatch(_, context) {
            throw Invalid(description: "not a take: wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))")
        } catch {
            throw Invalid(description: "not a take: \(error)")
        }
        return (take, try take.checkedEvents(limits: limits))
    }

    /// The events as messages, in layer order, or ``Invalid`` naming the first bad one.
    func checkedEvents(limits: JamLimits) throws(Invalid) -> [Event] {
        guard sampleRate >= 8_000, sampleRate <= 192_000 else {
            throw Invalid(description: "sampleRate \(sampleRate) is outside 8000–192000 Hz")
        }
        guard tempo >= 20, tempo <= 400 else { throw Invalid(description: "tempo \(tempo) is outside 20–400 bpm") }
        guard (1...32).contains(beatsPerBar) else { throw Invalid(description: "beatsPerBar \(beatsPerBar) is outside 1–32") }
        guard !layers.isEmpty else { throw Invalid(description: "the take has no layers") }
        if let tempoMap { try tempoMap.check(limits: limits, lastFrame: Int64(limits.maxSeconds * sampleRate)) }
        guard layers.count <= limits.maxLayers else {
            throw Invalid(description: "\(layers.count) layers; at most \(limits.maxLayers)")
        }
        let total = layers.reduce(0) { $0 + $1.events.count }
        guard total <= limits.maxEvents else {
            throw Invalid(description: "\(total) events; at most \(limits.maxEvents) per take")
        }
        let lastFrame = Int64(limits.maxSeconds * sampleRate)
        var events: [Event] = []
        events.reserveCapacity(total)
        for (l, layer) in layers.enumerated() {
            guard layer.name.utf8.count <= 256 else { throw Invalid(description: "layer \(l + 1): name longer than 256 bytes") }
            for (e, raw) in layer.events.enumerated() {
                let place = "layer \(l + 1), event \(e + 1)"
                guard raw.count >= 2, raw.count <= 1 + limits.maxMessageBytes else {
                    throw Invalid(description: "\(place): an event is [frame, status, data…] with at most \(limits.maxMessageBytes) bytes")
                }
                guard raw[0] >= 0, Int64(raw[0]) <= lastFrame else {
                    throw Invalid(description: "\(place): frame \(raw[0]) is outside the take (at most \(Int(limits.maxSeconds)) s)")
                }
                guard raw.dropFirst().allSatisfy({ (0...255).contains($0) }) else {
                    throw Invalid(description: "\(place): MIDI bytes are 0–255")
                }
                do {
                    let message = try MIDIMessage(bytes: raw.dropFirst().map { UInt8($0) })
                    events.append(Event(frame: Int64(raw[0]), layer: l, message: message))
                } catch {
                    throw Invalid(description: "\(place): not one complete MIDI channel or SysEx message: \(error)")
                }
            }
        }
        return events
    }
}

extension Take.TempoMap {
    /// Throws ``Take/Invalid`` naming the first entry that no MIDI file could hold.
    func check(limits: JamLimits, lastFrame: Int64) throws(Take.Invalid) {
        func invalid(_ text: String) -> Take.Invalid { Take.Invalid(description: "tempoMap: \(text)") }
        guard (1...32_767).contains(ticksPerQuarterNote) else { throw invalid("ticksPerQuarterNote \(ticksPerQuarterNote) is outside 1–32767") }
        guard tempos.count + meters.count <= limits.maxEvents else { throw invalid("more than \(limits.maxEvents) entries") }
        guard let first = tempos.first, first.frame == 0, first.tick == 0 else { throw invalid("the first tempo starts on frame 0, tick 0") }
        for (i, (earlier, tempo)) in zip([first] + tempos, tempos).enumerated() {
            guard tempo.frame >= earlier.frame, tempo.frame <= lastFrame, tempo.tick >= earlier.tick, tempo.tick <= Int(Int32.max) else {
                throw invalid("tempo \(i + 1) is not after the one before it, or outside the take")
            }
            guard tempo.microsecondsPerQuarterNote >= 1, tempo.microsecondsPerQuarterNote <= 16_777_215 else {
                throw invalid("tempo \(i + 1): \(tempo.microsecondsPerQuarterNote) µs per quarter note is outside 1–16777215")
            }
        }
        for (i, (earlier, meter)) in zip([meters.first].compactMap { $0 } + meters, meters).enumerated() {
            guard meter.tick >= earlier.tick, meter.tick <= Int(Int32.max), (1...255).contains(meter.numerator),
                  meter.denominator > 0, meter.denominator <= 128, meter.denominator & (meter.denominator - 1) == 0 else {
                throw invalid("meter \(i + 1) is out of order or not n/2^k")
            }
        }
    }

    /// The song's tick for the take's `frame`: through the tempo the frame falls in.
    func tick(_ frame: Int64, sampleRate: Double) -> Int {
        var low = 0, high = tempos.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if tempos[middle].frame <= frame { low = middle } else { high = middle }
        }
        let tempo = tempos[low]
        let quarters = Double(frame - tempo.frame) / sampleRate * 1_000_000 / tempo.microsecondsPerQuarterNote
        return tempo.tick + Int((quarters * Double(ticksPerQuarterNote)).rounded())
    }
}
