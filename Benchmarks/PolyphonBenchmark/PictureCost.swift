import Foundation
import PolyphonAudio
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont

/// `--picture-cost`: what a render picture adds to a render, per minute of audio, on the
/// planetblupi songs. Each song is rendered once into memory; then, best of `repeats`:
///
/// - the analysis fed block by block as a render feeds it, against the loudness meter it
///   replaces (a render measures loudness anyway: the difference is the picture's);
/// - the song's note labels (a schedule and the note rules);
/// - the drawing, rasterised and encoded as PNG; and as SVG.
enum PictureCost {
    static func run(bank: SoundFont, songs: [String], repeats: Int) throws {
        let rate = 44_100.0, block = 1024
        print("picture cost per song, best of \(repeats) (ms; per minute of audio at the end)")
        print("song          audio s   render   meter  analysis  labels  png(draw+encode)  svg")
        var totals = (audio: 0.0, render: 0.0, meter: 0.0, analysis: 0.0, labels: 0.0, png: 0.0, svg: 0.0)
        func best(_ body: () throws -> Void) rethrows -> Double {
            var fastest = Double.infinity
            for _ in 0..<repeats {
                let start = now()
                try body()
                fastest = min(fastest, now() - start)
            }
            return fastest
        }
        for path in songs {
            let midi = try MIDIFile(contentsOfFile: path)
            let renderer = OfflineRenderer(soundBank: bank)
            var left: [Float] = [], right: [Float] = []
            let renderStart = now()
            try renderer.render(midi, into: { l, r, n in
                left.append(contentsOf: UnsafeBufferPointer(start: l, count: n))
                right.append(contentsOf: UnsafeBufferPointer(start: r, count: n))
            })
            let renderSeconds = now() - renderStart
            let frames = left.count
            var analysis = RenderAnalysis(sampleRate: rate)
            let meterSeconds = best {
                var meter = LoudnessMeter(sampleRate: rate, channelCount: 2)
                left.withUnsafeBufferPointer { l in
                    right.withUnsafeBufferPointer { r in
                        var channels = [UnsafeBufferPointer<Float>](repeating: UnsafeBufferPointer(start: nil, count: 0), count: 2)
                        for start in stride(from: 0, to: frames, by: block) {
                            let n = min(block, frames - start)
                            channels[0] = UnsafeBufferPointer(start: l.baseAddress! + start, count: n)
                            channels[1] = UnsafeBufferPointer(start: r.baseAddress! + start, count: n)
                            meter.process(planar: channels, frameCount: n)
                        }
                    }
                }
                precondition(meter.integratedLoudness < 0)
            }
            let analysisSeconds = best {
                analysis = RenderAnalysis(sampleRate: rate, expectedFrames: Int64(frames))
                left.withUnsafeBufferPointer { l in
                    right.withUnsafeBufferPointer { r in
                        for start in stride(from: 0, to: frames, by: block) {
                            analysis.process(left: l.baseAddress! + start, right: r.baseAddress! + start,
                                             count: min(block, frames - start))
                        }
                    }
                }
            }
            var notes: [NoteLabel] = []
            let labelSeconds = best { notes = MIDISchedule(file: midi, sampleRate: rate, leadIn: 0).noteLabels() }
            let picture = RenderPicture(title: (path as NSString).lastPathComponent, bankName: "bank",
                                        analysis: analysis, notes: notes)
            var size = (png: 0, svg: 0)
            let pngSeconds = best { size.png = picture.data(format: .png).count }
            let svgSeconds = best { size.svg = picture.data(format: .svg).count }
            let audio = Double(frames) / rate
            print(String(format: "%@  %7.1f  %7.0f  %6.1f  %8.1f  %6.1f  %9.1f (%3d kB)  %5.1f (%4d kB)",
                         (path as NSString).lastPathComponent.padding(toLength: 12, withPad: " ", startingAt: 0),
                         audio, renderSeconds * 1000, meterSeconds * 1000, analysisSeconds * 1000, labelSeconds * 1000,
                         pngSeconds * 1000, size.png / 1000, svgSeconds * 1000, size.svg / 1000))
            totals.audio += audio
            totals.render += renderSeconds
            totals.meter += meterSeconds
            totals.analysis += analysisSeconds
            totals.labels += labelSeconds
            totals.png += pngSeconds
            totals.svg += svgSeconds
        }
        guard totals.audio > 0 else { return }
        let minutes = totals.audio / 60
        let added = totals.analysis - totals.meter + totals.labels + totals.png
        print(String(format: "per minute of audio: render %.0f ms; analysis %.1f ms (meter it replaces %.1f); labels %.1f; "
                         + "PNG %.1f; SVG %.1f", totals.render / minutes * 1000, totals.analysis / minutes * 1000,
                     totals.meter / minutes * 1000, totals.labels / minutes * 1000, totals.png / minutes * 1000,
                     totals.svg / minutes * 1000))
        print(String(format: "a PNG picture adds %.1f ms per minute of audio, %.2f %% of the render's time",
                     added / minutes * 1000, 100 * added / totals.render))
    }
}
