import Foundation
import PolyphonAudio
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont

/// `--picture-cost`: what a render picture adds to a render, per minute of audio, on the
/// planetblupi songs. Each song is rendered once, its blocks fed as a file render feeds them to
/// both the loudness meter a render runs anyway and the picture's analysis, which replaces it
/// (each call timed: the difference is the picture's); then, best of `repeats`, the song's note
/// labels (a schedule and the note rules), the drawing rasterised and encoded as PNG, and as SVG.
enum PictureCost {
    static func run(bank: SoundFont, songs: [String], repeats: Int) throws {
        let rate = 44_100.0
        print("picture cost per song (ms; labels and pictures best of \(repeats))")
        print("song          audio s   render    meter  analysis  labels  png (size)      svg (size)")
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
            var meter = LoudnessMeter(sampleRate: rate, channelCount: 2)
            var analysis = RenderAnalysis(sampleRate: rate, expectedFrames: Int64(midi.duration * rate))
            var channels = [UnsafeBufferPointer<Float>](repeating: UnsafeBufferPointer(start: nil, count: 0), count: 2)
            var meterSeconds = 0.0, analysisSeconds = 0.0
            let renderStart = now()
            try renderer.render(midi, into: { l, r, n in
                let t0 = now()
                channels[0] = UnsafeBufferPointer(start: l, count: n)
                channels[1] = UnsafeBufferPointer(start: r, count: n)
                meter.process(planar: channels, frameCount: n)
                let t1 = now()
                analysis.process(left: l, right: r, count: n)
                let t2 = now()
                meterSeconds += t1 - t0
                analysisSeconds += t2 - t1
            })
            let renderSeconds = now() - renderStart - meterSeconds - analysisSeconds
            precondition(abs(meter.integratedLoudness - analysis.integratedLoudness) < 1e-9)
            var notes: [NoteLabel] = []
            let labelSeconds = best { notes = Timeline(file: midi, sampleRate: rate, leadIn: 0).noteLabels() }
            let picture = RenderPicture(title: (path as NSString).lastPathComponent, bankName: "bank",
                                        analysis: analysis, notes: notes)
            var size = (png: 0, svg: 0)
            let drawing = picture.drawing()
            let layoutSeconds = best { _ = picture.drawing() }
            let rasterSeconds = best { _ = drawing.rasterized() }
            let pngSeconds = best { size.png = picture.data(format: .png).count }
            let svgSeconds = best { size.svg = picture.data(format: .svg).count }
            let audio = analysis.duration
            print(String(format: "%@  %7.1f  %7.0f  %7.1f  %8.1f  %6.1f  %5.1f (%3d kB; layout %.1f, raster %.1f)  %6.1f (%4d kB)",
                         (path as NSString).lastPathComponent.padding(toLength: 12, withPad: " ", startingAt: 0),
                         audio, renderSeconds * 1000, meterSeconds * 1000, analysisSeconds * 1000, labelSeconds * 1000,
                         pngSeconds * 1000, size.png / 1000, layoutSeconds * 1000, rasterSeconds * 1000,
                         svgSeconds * 1000, size.svg / 1000))
            totals.audio += audio
            totals.render += renderSeconds
            totals.meter += meterSeconds
            totals.analysis += analysisSeconds
            totals.labels += labelSeconds
            totals.png += pngSeconds
            totals.svg += svgSeconds
        }
        guard totals.audio > 0 else { return }
        let minutes = totals.audio / 60, count = Double(songs.count)
        func perMinute(_ seconds: Double) -> Double { seconds / minutes * 1000 }
        let levels = totals.analysis - totals.meter
        print(String(format: "%.1f min of audio in %d songs. Per minute of audio: render %.0f ms; meter %.1f ms, the "
                         + "analysis that replaces it %.1f ms (so the picture's levels %.1f ms); note labels %.1f ms",
                     minutes, songs.count, perMinute(totals.render), perMinute(totals.meter), perMinute(totals.analysis),
                     perMinute(levels), perMinute(totals.labels)))
        print(String(format: "per picture: PNG %.1f ms (layout, raster, zlib), SVG %.1f ms", totals.png / count * 1000,
                     totals.svg / count * 1000))
        let threeMinutes = (levels + totals.labels) / minutes * 3 + totals.png / count
        print(String(format: "a PNG picture of a 3-minute song adds %.0f ms (%.1f ms per minute of audio): %.1f %% of its "
                         + "render's time", threeMinutes * 1000, threeMinutes / 3 * 1000,
                     100 * threeMinutes / (totals.render / minutes * 3)))
    }
}
