import Foundation

/// The file format of a render picture.
public enum PictureFormat: String, Sendable, CaseIterable {
    /// A palette PNG, the text drawn with the embedded bitmap font.
    case png
    /// SVG, the text as text.
    case svg

    /// `png` or `svg`.
    public var fileExtension: String { rawValue }
}

/// A picture of a render to look at instead of listening through a thousand files, labelled
/// so that a person can read it: a title (file, bank, duration, loudness, peak), a legend of
/// the instruments in their colours, the piano roll with the C of each octave named, the
/// waveform on a dBFS scale (peak and RMS, clipping in red), the short-term loudness on an LUFS
/// scale with the integrated value, and a time axis in m:ss under all three.
///
/// Everything comes from what the render produced: its ``RenderAnalysis`` and the song's
/// ``NoteLabel``s. Drawing costs a pass over the notes and the analysis' few thousand steps,
/// whatever the song's length.
///
/// ```swift
/// let summary = try renderer.render(midi, to: target, analyzing: true)
/// let notes = Timeline(file: midi, sampleRate: 44_100, leadIn: 0).noteLabels()
/// let picture = RenderPicture(title: "song.mid", bankName: "FluidR3_GM.sf2",
///                             analysis: summary.analysis!, notes: notes)
/// try picture.data(format: .png).write(to: URL(fileURLWithPath: "song.png"))
/// ```
public struct RenderPicture: Sendable {
    /// The first line: usually the song's file name.
    public var title: String
    /// The bank it was rendered with, for the second line.
    public var bankName: String?
    public var analysis: RenderAnalysis
    public var notes: [NoteLabel]
    /// Pixels across (at least 640); the height follows from the number of instruments.
    public var width: Int

    public init(title: String, bankName: String? = nil, analysis: RenderAnalysis, notes: [NoteLabel],
                width: Int = 1600) {
        self.title = title
        self.bankName = bankName
        self.analysis = analysis
        self.notes = notes
        self.width = max(640, width)
    }

    /// The picture's file bytes.
    public func data(format: PictureFormat) -> Data {
        switch format {
        case .png: drawing().pngData()
        case .svg: Data(drawing().svg().utf8)
        }
    }

    /// Seconds of the song: the audio's length, or the last note's end if that is later.
    public var duration: Double {
        let lastNote = notes.map(\.offsetSeconds).max() ?? 0
        return max(analysis.duration, lastNote)
    }

    /// The colours of everything that is not an instrument.
    enum Theme {
        static let background = PictureDrawing.Colour(16, 17, 23)
        static let panel = PictureDrawing.Colour(27, 29, 38)
        static let blackKey = PictureDrawing.Colour(22, 24, 32)
        static let grid = PictureDrawing.Colour(58, 61, 78)
        static let title = PictureDrawing.Colour(240, 241, 245)
        static let text = PictureDrawing.Colour(208, 210, 220)
        static let caption = PictureDrawing.Colour(160, 164, 182)
        static let peak = PictureDrawing.Colour(70, 120, 190)
        static let rms = PictureDrawing.Colour(130, 190, 250)
        static let clipping = PictureDrawing.Colour(245, 70, 70)
        static let loudness = PictureDrawing.Colour(250, 200, 80)
        static let integrated = PictureDrawing.Colour(255, 140, 70)
    }

    /// Where everything goes: computed first, since the height depends on the legend.
    struct Layout {
        static let left = 72, right = 32, gap = 30
        let width: Int
        var plotWidth: Int { width - Self.left - Self.right }
        let legendTop = 72
        let legendColumns: Int
        let legendRows: Int
        let legendColumnWidth: Int
        var rollTop: Int { legendTop + max(1, legendRows) * 20 + Self.gap }
        let rollHeight = 420
        var waveTop: Int { rollTop + rollHeight + Self.gap }
        let waveHeight = 176
        var loudTop: Int { waveTop + waveHeight + Self.gap }
        let loudHeight = 150
        var axisTop: Int { loudTop + loudHeight }
        var height: Int { axisTop + 36 }

        init(width: Int, instruments: [PictureInstrument]) {
            self.width = width
            let longest = instruments.map { $0.name.count }.max() ?? 8
            legendColumnWidth = 24 + longest * PictureDrawing.TextSize.small.advance + 24
            legendColumns = max(1, (width - Self.left - Self.right + 24) / legendColumnWidth)
            legendRows = (instruments.count + legendColumns - 1) / legendColumns
        }

        /// The x of a time.
        func x(_ seconds: Double, span: Double) -> Int {
            Self.left + Int((seconds / span * Double(plotWidth)).rounded(.down))
        }
    }

    /// The picture laid out as rectangles and text.
    public func drawing() -> PictureDrawing {
        let instruments = PictureInstrument.playing(in: notes)
        let layout = Layout(width: width, instruments: instruments)
        let axis = PictureTimeAxis(duration: duration, pixels: layout.plotWidth)
        var d = PictureDrawing(width: width, height: layout.height, background: Theme.background)

        drawTitle(into: &d, instruments: instruments)
        drawLegend(into: &d, instruments: instruments, layout: layout)
        for (top, height) in [(layout.rollTop, layout.rollHeight), (layout.waveTop, layout.waveHeight),
                              (layout.loudTop, layout.loudHeight)] {
            d.fill(x: Layout.left, y: top, width: layout.plotWidth, height: height, Theme.panel)
        }
        drawPianoRoll(into: &d, instruments: instruments, layout: layout, axis: axis)
        drawWaveform(into: &d, layout: layout, axis: axis)
        drawLoudness(into: &d, layout: layout, axis: axis)
        drawTimeAxis(into: &d, layout: layout, axis: axis)
        return d
    }

    private func drawTitle(into d: inout PictureDrawing, instruments: [PictureInstrument]) {
        let room = (width - 32) / PictureDrawing.TextSize.large.advance
        let shown = title.count > room ? String(title.prefix(max(1, room - 3))) + "..." : title
        d.text(shown, x: 16, y: 12, size: .large, Theme.title)
        var facts: [String] = []
        if let bankName { facts.append("bank " + bankName) }
        facts.append(PictureTimeAxis.clock(duration, tenths: duration < 3600, hours: duration >= 3600))
        let loudness = analysis.integratedLoudness
        facts.append(loudness.isFinite ? String(format: "%.1f LUFS integrated", loudness) : "silent")
        let peak = analysis.peak
        if peak > 0 { facts.append(String(format: "peak %.1f dBFS", 20 * log10(Double(peak)))) }
        facts.append("\(instruments.count) instrument\(instruments.count == 1 ? "" : "s"), "
                     + "\(notes.count) note\(notes.count == 1 ? "" : "s")")
        d.text(facts.joined(separator: "   "), x: 16, y: 42, Theme.text)
    }

    private func drawLegend(into d: inout PictureDrawing, instruments: [PictureInstrument], layout: Layout) {
        guard !instruments.isEmpty else {
            d.text("no notes", x: Layout.left, y: layout.legendTop, Theme.caption)
            return
        }
        for (k, instrument) in instruments.enumerated() {
            let x = Layout.left + (k % layout.legendColumns) * layout.legendColumnWidth
            let y = layout.legendTop + (k / layout.legendColumns) * 20
            d.fill(x: x, y: y + 2, width: 12, height: 12, instrument.colour)
            d.text(instrument.name, x: x + 24, y: y, instrument.colour)
        }
    }

    /// A caption above a panel, left, and an optional note on the right.
    func caption(_ text: String, right: String? = nil, top: Int, into d: inout PictureDrawing) {
        d.text(text, x: Layout.left, y: top - 22, Theme.caption)
        if let right { d.text(right, x: width - Layout.right, y: top - 22, Theme.caption, anchor: .end) }
    }

    private func drawTimeAxis(into d: inout PictureDrawing, layout: Layout, axis: PictureTimeAxis) {
        let bottom = layout.axisTop
        d.fill(x: Layout.left, y: bottom, width: layout.plotWidth, height: 1, Theme.grid)
        for t in axis.ticks {
            let x = min(layout.x(t, span: axis.span), Layout.left + layout.plotWidth - 1)
            d.fill(x: x, y: bottom, width: 1, height: 6, Theme.text)
            d.text(axis.label(t), x: x, y: bottom + 10, Theme.text, anchor: .middle)
        }
    }

    /// Faint vertical lines at the axis' ticks across a panel.
    func timeGrid(top: Int, height: Int, layout: Layout, axis: PictureTimeAxis, into d: inout PictureDrawing) {
        for t in axis.ticks.dropFirst() {
            let x = layout.x(t, span: axis.span)
            if x < Layout.left + layout.plotWidth { d.fill(x: x, y: top, width: 1, height: height, Theme.grid) }
        }
    }
}
