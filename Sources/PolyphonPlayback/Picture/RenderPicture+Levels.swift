import Foundation

extension RenderPicture {
    /// The waveform's scale: −60 dBFS at the centre line, 0 dBFS at the edges.
    static let waveformFloor = -60.0
    /// The loudness panel's scale, LUFS.
    static let loudnessRange = -60.0...0.0

    /// The level steps a column of the picture covers (at least one, so a song shorter than
    /// the picture is wide shows each step over several columns), or nil past the audio.
    func steps(ofColumn column: Int, columns: Int, stepSeconds: Double, count: Int, span: Double) -> Range<Int>? {
        let t0 = Double(column) / Double(columns) * span, t1 = Double(column + 1) / Double(columns) * span
        let a = Int(t0 / stepSeconds), b = max(a + 1, Int(t1 / stepSeconds))
        guard a < count else { return nil }
        return a..<min(b, count)
    }

    /// The waveform on a dBFS scale, mirrored about the centre: each column's peak (darker)
    /// and RMS (lighter) level; a column whose peak reaches full scale is drawn red.
    func drawWaveform(into d: inout PictureDrawing, layout: Layout, axis: PictureTimeAxis) {
        let top = layout.waveTop, height = layout.waveHeight
        let centre = top + height / 2, half = height / 2 - 2
        caption("waveform: peak and RMS, dBFS (-60 at the centre line)", top: top, into: &d)
        timeGrid(top: top, height: height, layout: layout, axis: axis, into: &d)
        func offset(_ decibels: Double) -> Int {
            guard decibels.isFinite else { return 0 }
            let level = (min(0, decibels) - Self.waveformFloor) / -Self.waveformFloor
            return Int((max(0, level) * Double(half)).rounded())
        }
        for decibels in stride(from: 0.0, to: Self.waveformFloor, by: -20) {
            for y in [centre - offset(decibels), centre + offset(decibels)] {
                d.fill(x: Layout.left, y: y, width: layout.plotWidth, height: 1, Theme.grid)
                d.text(String(format: "%.0f", decibels), x: Layout.left - 8, y: y - 8, Theme.text, anchor: .end)
            }
        }
        d.fill(x: Layout.left, y: centre, width: layout.plotWidth, height: 1, Theme.grid)

        var (peaks, meanSquares) = (analysis.peaks, analysis.meanSquares)
        if let partial = analysis.partialStep {
            peaks.append(partial.peak)
            meanSquares.append(partial.meanSquare)
        }
        let stepSeconds = Double(analysis.stepFrames) / analysis.sampleRate
        for column in 0..<layout.plotWidth {
            guard let range = steps(ofColumn: column, columns: layout.plotWidth, stepSeconds: stepSeconds,
                                    count: peaks.count, span: axis.span) else { break }
            var peak: Float = 0, energy: Float = 0
            for s in range {
                peak = max(peak, peaks[s])
                energy += meanSquares[s]
            }
            let peakOffset = offset(peak > 0 ? 20 * log10(Double(peak)) : -.infinity)
            let rms = Double(energy) / Double(range.count)
            let rmsOffset = offset(rms > 0 ? 10 * log10(rms) : -.infinity)
            let x = Layout.left + column
            if peakOffset > 0 {
                d.fill(x: x, y: centre - peakOffset, width: 1, height: 2 * peakOffset + 1,
                       peak >= 1 ? Theme.clipping : Theme.peak)
            }
            if rmsOffset > 0 { d.fill(x: x, y: centre - rmsOffset, width: 1, height: 2 * rmsOffset + 1, Theme.rms) }
        }
    }

    /// The short-term loudness (3 s) on an LUFS scale, the integrated loudness as a dashed line.
    func drawLoudness(into d: inout PictureDrawing, layout: Layout, axis: PictureTimeAxis) {
        let top = layout.loudTop, height = layout.loudHeight
        let integrated = analysis.integratedLoudness
        caption("short-term loudness (3 s), LUFS", right: integrated.isFinite
                ? String(format: "integrated %.1f LUFS", integrated) : "integrated: silent", top: top, into: &d)
        timeGrid(top: top, height: height, layout: layout, axis: axis, into: &d)
        let range = Self.loudnessRange
        func y(_ lufs: Double) -> Int {
            let level = (min(range.upperBound, max(range.lowerBound, lufs)) - range.lowerBound)
                / (range.upperBound - range.lowerBound)
            return top + height - 1 - Int((level * Double(height - 1)).rounded())
        }
        for lufs in stride(from: range.upperBound, through: range.lowerBound, by: -10) {
            d.fill(x: Layout.left, y: y(lufs), width: layout.plotWidth, height: 1, Theme.grid)
            d.text(String(format: "%.0f", lufs), x: Layout.left - 8, y: y(lufs) - 8, Theme.text, anchor: .end)
        }
        if integrated.isFinite {
            for x in stride(from: 0, to: layout.plotWidth, by: 14) {
                d.fill(x: Layout.left + x, y: y(integrated) - 1, width: min(8, layout.plotWidth - x), height: 2,
                       Theme.integrated)
            }
        }

        let values = analysis.shortTermLoudness
        let stepSeconds = Double(analysis.loudnessStepFrames) / analysis.sampleRate
        var previous: Int?
        for column in 0..<layout.plotWidth {
            guard let steps = steps(ofColumn: column, columns: layout.plotWidth, stepSeconds: stepSeconds,
                                    count: values.count, span: axis.span) else { break }
            let loudest = steps.map { Double(values[$0]) }.max() ?? -.infinity
            guard loudest.isFinite, loudest >= range.lowerBound else {
                previous = nil
                continue
            }
            let current = y(loudest)
            let from = min(current, previous ?? current), to = max(current, previous ?? current)
            d.fill(x: Layout.left + column, y: from - 1, width: 1, height: to - from + 2, Theme.loudness)
            previous = current
        }
    }
}
