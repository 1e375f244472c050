import Foundation
import PolyphonAudio

/// A picture of a render to look at instead of listening through a thousand files: the piano
/// roll (notes coloured by General MIDI instrument family, drums grey), the waveform, and the
/// short-term loudness over time, one above the other.
///
/// Feed the mix block by block (``process(left:right:count:)``), then draw it with the song's
/// note labels (``image(labels:width:height:)``). Memory is a few numbers per 100 ms of audio,
/// reserved up front for the expected length.
public struct RenderPicture {
    public let sampleRate: Double
    /// Frames per stored step (100 ms).
    private let hop: Int
    private var low: [Float] = [], high: [Float] = []
    /// The meter's momentary loudness (400 ms, BS.1770) at the end of each step, LUFS.
    private var loudness: [Double] = []
    private var meter: LoudnessMeter
    /// The meter's channel pointers, updated in place so that feeding does not allocate.
    private var channels = [UnsafeBufferPointer<Float>](repeating: UnsafeBufferPointer(start: nil, count: 0), count: 2)
    private var stepLow: Float = 0, stepHigh: Float = 0, inStep = 0
    public private(set) var frames: Int64 = 0

    /// `expectedFrames` sizes the storage so that feeding does not allocate.
    public init(sampleRate: Double, expectedFrames: Int64) {
        self.sampleRate = sampleRate
        hop = max(1, Int(sampleRate / 10))
        meter = LoudnessMeter(sampleRate: sampleRate, channelCount: 2)
        let steps = Int(min(expectedFrames, 24 * 3600 * 192_000) / Int64(hop)) + 64
        low.reserveCapacity(steps)
        high.reserveCapacity(steps)
        loudness.reserveCapacity(steps)
    }

    /// Takes in one block of the mix.
    public mutating func process(left: UnsafePointer<Float>, right: UnsafePointer<Float>, count: Int) {
        var done = 0
        while done < count {
            let n = min(count - done, hop - inStep)
            for i in done..<done + n {
                let m = 0.5 * (left[i] + right[i])
                stepLow = min(stepLow, m)
                stepHigh = max(stepHigh, m)
            }
            channels[0] = UnsafeBufferPointer(start: left + done, count: n)
            channels[1] = UnsafeBufferPointer(start: right + done, count: n)
            meter.process(planar: channels, frameCount: n)
            inStep += n
            done += n
            if inStep == hop {
                low.append(stepLow)
                high.append(stepHigh)
                loudness.append(meter.momentaryLoudness)
                stepLow = 0
                stepHigh = 0
                inStep = 0
            }
        }
        frames += Int64(count)
    }

    /// The palette: 0 background, 1 grid, 2 waveform, 3 loudness, 4 drums, 5… the 16 General
    /// MIDI families (piano, chromatic percussion, organ, guitar, bass, strings, ensemble,
    /// brass, reed, pipe, synth lead, synth pad, synth effects, ethnic, percussive, sound effects).
    static let palette: [(UInt8, UInt8, UInt8)] = [
        (18, 18, 24), (48, 48, 60), (120, 190, 240), (250, 200, 80), (150, 150, 150),
        (230, 90, 90), (240, 150, 60), (200, 120, 220), (120, 200, 90), (90, 120, 230), (230, 80, 160),
        (80, 200, 200), (240, 210, 70), (170, 230, 130), (120, 170, 250), (250, 120, 120), (180, 140, 250),
        (100, 220, 160), (210, 170, 120), (160, 200, 230), (200, 200, 200),
    ]

    /// The picture: piano roll on top (60 %), waveform (25 %), short-term loudness from −60 to
    /// 0 LUFS (15 %).
    public func image(labels: [NoteLabel], width: Int = 1200, height: Int = 480) -> PNGImage {
        var image = PNGImage(width: width, height: height, palette: Self.palette)
        let total = max(Int64(1), max(frames, labels.map(\.offsetFrame).max() ?? 0))
        func x(_ frame: Int64) -> Int { Int(Double(frame) / Double(total) * Double(width)) }
        let rollHeight = height * 60 / 100, waveTop = rollHeight + 1, waveHeight = height * 25 / 100
        let loudTop = waveTop + waveHeight + 1, loudHeight = height - loudTop
        image.fill(x0: 0, x1: width, y0: rollHeight, y1: rollHeight + 1, 1)
        image.fill(x0: 0, x1: width, y0: loudTop - 1, y1: loudTop, 1)

        // Piano roll: the pitch range played, one band per key.
        let pitches = labels.map(\.pitch)
        let lowest = max(0, (pitches.min() ?? 48) - 2), highest = min(127, (pitches.max() ?? 72) + 2)
        let keys = highest - lowest + 1
        for octave in stride(from: (lowest / 12 + 1) * 12, through: highest, by: 12) {
            let y = rollHeight - 1 - (octave - lowest) * rollHeight / keys
            image.fill(x0: 0, x1: width, y0: y, y1: y + 1, 1)
        }
        for l in labels {
            let colour = l.isDrum ? 4 : UInt8(5 + min(15, l.program / 8))
            let y0 = rollHeight - (l.pitch - lowest + 1) * rollHeight / keys
            let y1 = max(y0 + 1, rollHeight - (l.pitch - lowest) * rollHeight / keys)
            image.fill(x0: x(l.onsetFrame), x1: max(x(l.onsetFrame) + 1, x(l.offsetFrame)), y0: y0, y1: y1, colour)
        }

        // Short-term loudness: the mean energy of the momentary blocks over the last 3 s.
        let steps = low.count
        var shortTerm = [Double](repeating: -.infinity, count: steps)
        var energy = 0.0
        var window: [Double] = []
        for s in 0..<steps {
            let e = loudness[s].isFinite ? pow(10, (loudness[s] + 0.691) / 10) : 0
            window.append(e)
            energy += e
            if window.count > 30 { energy -= window.removeFirst() }
            let mean = energy / Double(window.count)
            shortTerm[s] = mean > 1e-12 ? -0.691 + 10 * log10(mean) : -.infinity
        }

        // Waveform and loudness: each column the extremes (and the loudest step) of its steps.
        let centre = waveTop + waveHeight / 2
        for column in 0..<width where steps > 0 {
            let a = Int(Double(column) / Double(width) * Double(total) / Double(hop))
            let b = max(a + 1, Int(Double(column + 1) / Double(width) * Double(total) / Double(hop)))
            guard a < steps else { break }
            var lo: Float = 0, hi: Float = 0, loud = -Double.infinity
            for s in a..<min(b, steps) {
                lo = min(lo, low[s])
                hi = max(hi, high[s])
                loud = max(loud, shortTerm[s])
            }
            let top = centre - Int(min(1, hi) * Float(waveHeight / 2))
            let bottom = centre - Int(max(-1, lo) * Float(waveHeight / 2))
            image.fill(x0: column, x1: column + 1, y0: top, y1: max(top + 1, bottom + 1), 2)
            if loud.isFinite {
                let level = min(1, max(0, (loud + 60) / 60))
                let y = loudTop + loudHeight - 1 - Int(level * Double(loudHeight - 1))
                image.fill(x0: column, x1: column + 1, y0: y, y1: y + 2, 3)
            }
        }
        return image
    }
}
