import Foundation
import PolyphonAudio
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
import Testing

/// The labelled render picture: its time axis, its analysis, and what a reader sees in it —
/// Tesseract reads the title, the time labels and the instrument names back from the PNG; a
/// silent song, a 4-hour one and one with all 128 instruments still give valid, readable
/// pictures; the SVG is XML with its text as text.
@Suite("RenderPicture")
struct RenderPictureTests {
    // MARK: - Songs

    /// A song of `seconds` on four instruments: piano (program 0) and fingered bass (33) in
    /// turns, violin (40) held, and drums (Standard Kit) every half second.
    static func quartet(seconds: Double) -> MIDIFile {
        var notes: [(channel: UInt8, key: UInt8, start: Int, length: Int)] = []
        for k in 0..<Int(seconds * 2) {
            notes.append((0, UInt8(60 + k * 5 % 12), k * 480, 400))
            notes.append((1, UInt8(36 + k * 7 % 12), k * 480 + 240, 200))
            notes.append((9, k % 2 == 0 ? 36 : 38, k * 480, 120))
            if k % 4 == 0 { notes.append((2, UInt8(72 + k % 5), k * 480, 1800)) }
        }
        return BatchCorpus.song(notes, programs: [0: 0, 1: 33, 2: 40])
    }

    static func render(_ song: MIDIFile, to directory: TemporaryDirectory, name: String) throws
        -> (analysis: RenderAnalysis, notes: [NoteLabel]) {
        let renderer = OfflineRenderer(soundBank: SineBank.make())
        let summary = try renderer.render(song, to: AudioFileTarget(path: directory.file(name + ".wav"), format: .wav,
                                                                    sampleFormat: .int16), analyzing: true)
        let notes = Timeline(file: song, sampleRate: renderer.options.sampleRate, leadIn: 0).noteLabels()
        return (try #require(summary.analysis), notes)
    }

    /// The words Tesseract reads in `picture`, written as a PNG to `path` (and copied to
    /// `$POLYPHON_KEEP_PICTURES/`, when set, to look at).
    static func words(ofPicture picture: RenderPicture, at path: String) throws -> [String] {
        try picture.data(format: .png).write(to: URL(fileURLWithPath: path))
        if let keep = ProcessInfo.processInfo.environment["POLYPHON_KEEP_PICTURES"] {
            let copy = keep + "/" + (path as NSString).lastPathComponent
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.copyItem(atPath: path, toPath: copy)
        }
        return TextRecognition.words(try TextRecognition.text(ofImageAt: path))
    }

    // MARK: - Time axis

    @Test(arguments: [0.0, 0.4, 2.5, 20, 95, 200, 600, 3599, 3600, 14_400])
    func ticksSuitTheDuration(seconds: Double) {
        let axis = PictureTimeAxis(duration: seconds, pixels: 1496)
        let ticks = axis.ticks
        #expect(ticks.first == 0)
        #expect((5...16).contains(ticks.count), "\(ticks.count) ticks for \(seconds) s")
        #expect(ticks.last! <= axis.span + 1e-9 && axis.span >= seconds)
        // At least 100 px apart: room for "1:00:00" and a gap.
        #expect(axis.step / axis.span * 1496 >= 100)
        let labels = ticks.map(axis.label)
        #expect(Set(labels).count == labels.count)
        if seconds >= 3600 { #expect(labels.allSatisfy { $0.split(separator: ":").count == 3 }) }
    }

    @Test func labelsReadAsClockTimes() {
        let short = PictureTimeAxis(duration: 2.5, pixels: 1496)
        #expect(short.ticks.map(short.label) == ["0:00.0", "0:00.2", "0:00.4", "0:00.6", "0:00.8", "0:01.0", "0:01.2",
                                                 "0:01.4", "0:01.6", "0:01.8", "0:02.0", "0:02.2", "0:02.4"])
        #expect(PictureTimeAxis.clock(95) == "1:35")
        #expect(PictureTimeAxis.clock(3600 * 2 + 61, hours: true) == "2:01:01")
        #expect(PictureTimeAxis.clock(1.25, tenths: true) == "0:01.3")
        #expect(PictureTimeAxis(duration: 200, pixels: 1496).label(120) == "2:00")
        #expect(PictureTimeAxis(duration: 14_400, pixels: 1496).label(3600) == "1:00:00")
    }

    // MARK: - Analysis

    @Test func analysisMeasuresLevelsAndKeepsItsStepsBounded() throws {
        // 8 kHz: 80-frame steps, so 32,768 steps are 328 s. 700 s of quiet sine with a full-scale
        // burst at 500 s: the steps merge twice, and the burst stays where it was.
        let rate = 8000.0
        var analysis = RenderAnalysis(sampleRate: rate, expectedFrames: Int64(700 * rate))
        let block = 4000
        var left = [Float](repeating: 0, count: block)
        for k in 0..<Int(700 * rate) / block {
            let second = Double(k * block) / rate
            let amplitude: Float = second >= 500 && second < 501 ? 1 : 0.01
            for i in 0..<block { left[i] = amplitude * Float(sin(2 * Double.pi * 1000 * Double(k * block + i) / rate)) }
            left.withUnsafeBufferPointer { l in analysis.process(left: l.baseAddress!, right: l.baseAddress!, count: block) }
        }
        #expect(analysis.frames == Int64(700 * rate))
        #expect(analysis.stepFrames == 320)
        #expect(analysis.peaks.count <= RenderAnalysis.maximumStepCount && analysis.peaks.count == Int(700 * rate) / 320)
        let stepSeconds = 320 / rate
        let loud = analysis.peaks.indices.filter { analysis.peaks[$0] > 0.5 }
        #expect(Double(loud.first!) * stepSeconds >= 499.9 && Double(loud.last!) * stepSeconds < 501)
        // The quiet sine's RMS: 0.01/√2, −43 dBFS.
        let quietRMS = 10 * log10(Double(analysis.meanSquares[100]))
        #expect(abs(quietRMS - (-43.0)) < 0.1)
        // Loudness every 100 ms; the burst's second is the loudest.
        #expect(analysis.shortTermLoudness.count == 7000)
        let loudest = analysis.shortTermLoudness.indices.max { analysis.shortTermLoudness[$0] < analysis.shortTermLoudness[$1] }!
        #expect((5005...5035).contains(loudest))
        #expect(abs(Double(analysis.peak) - 1) < 0.01)
    }

    // MARK: - What a reader sees

    @Test(.enabled(if: TextRecognition.available), .timeLimit(.minutes(15)))
    func tesseractReadsTheTitleTimeLabelsAndInstruments() throws {
        let dir = try TemporaryDirectory(prefix: "picture-ocr")
        let (analysis, notes) = try Self.render(Self.quartet(seconds: 20), to: dir, name: "quartet")
        let picture = RenderPicture(title: "quartet.mid", bankName: "SineBank.sf2", analysis: analysis, notes: notes)
        let words = try Self.words(ofPicture: picture, at: dir.file("quartet.png"))
        let text = words.joined(separator: " ")

        #expect(words.contains("quartet.mid"), "title not found in: \(text)")
        #expect(words.contains("SineBank.sf2"), "bank not found in: \(text)")
        // The time axis: 20.x s over 1496 px gives a tick every 2 s.
        let times = ["0:00", "0:02", "0:04", "0:06", "0:08", "0:10", "0:12", "0:14", "0:16", "0:18", "0:20"]
        let found = times.filter(words.contains)
        print("Tesseract read the quartet's picture as: \(text)")
        #expect(found.count >= 9, "time labels found: \(found) in: \(text)")
        // Names compared without case: at 16 pixels Tesseract takes a K for a k now and then.
        for name in ["Acoustic Grand Piano", "Electric Bass (finger)", "Violin", "Drums: Standard Kit"] {
            #expect(text.lowercased().contains(name.lowercased()), "\(name) not found in: \(text)")
        }
        let octaves = ["C2", "C3", "C4", "C5", "C6"].filter(words.contains)
        #expect(octaves.count >= 2 && text.contains("middle C"), "note names found: \(octaves) in: \(text)")
        #expect(text.contains("LUFS") && text.contains("dBFS"), "scales not found in: \(text)")
    }

    @Test(.enabled(if: TextRecognition.available), .timeLimit(.minutes(15)))
    func aSilentZeroSecondSongGivesAValidReadablePicture() throws {
        let dir = try TemporaryDirectory(prefix: "picture-empty")
        let (analysis, notes) = try Self.render(BatchCorpus.song([]), to: dir, name: "empty")
        #expect(notes.isEmpty && analysis.frames < 4096)
        let picture = RenderPicture(title: "empty.mid", analysis: analysis, notes: notes)
        let path = dir.file("empty.png")
        let words = try Self.words(ofPicture: picture, at: path)
        let png = try PNGCheck.decode(path)
        #expect(png.width == 1600 && png.height == picture.drawing().height && png.colourType == 3)
        #expect(words.contains("empty.mid") && words.contains("silent"), "\(words)")
        #expect(words.contains("0:00.0") || words.contains("0:00.1"), "\(words)")
    }

    @Test(.enabled(if: TextRecognition.available), .timeLimit(.minutes(15)))
    func aFourHourSongIsDrawnFromItsAnalysisAlone() throws {
        // Four hours are not rendered: the analysis is made up (a slow swell every 10 minutes)
        // and the notes come from the song's schedule, which costs no rendering.
        let seconds = 4 * 3600.0, rate = 44_100.0
        let stepFrames = 441 * 32
        let steps = Int(seconds * rate) / stepFrames
        let peaks = (0..<steps).map { Float(0.1 + 0.4 * (1 + sin(Double($0) * Double(stepFrames) / rate / 600 * 2 * .pi))) }
        let meanSquares = peaks.map { $0 * $0 / 4 }
        let loudness = (0..<Int(seconds * 10)).map { Float(-30 + 8 * sin(Double($0) / 10 / 600 * 2 * .pi)) }
        let analysis = RenderAnalysis(sampleRate: rate, frames: Int64(seconds * rate), stepFrames: stepFrames,
                                      peaks: peaks, meanSquares: meanSquares, shortTermLoudness: loudness,
                                      integratedLoudness: -28.5)
        // A note every 2 s for four hours, on two instruments in turn: 7,200 notes.
        var notes: [(channel: UInt8, key: UInt8, start: Int, length: Int)] = []
        for k in 0..<7200 { notes.append((UInt8(k % 2), UInt8(48 + k % 24), k * 1920, 1500)) }
        let song = BatchCorpus.song(notes, programs: [0: 19, 1: 73])
        let labels = Timeline(file: song, sampleRate: rate, leadIn: 0).noteLabels()
        #expect(labels.count == 7200)

        let dir = try TemporaryDirectory(prefix: "picture-long")
        let picture = RenderPicture(title: "four-hours.mid", analysis: analysis, notes: labels)
        // The work is bounded by the picture, not the song: at most a few elements per column
        // and per note, whatever the duration (its speed is the benchmark's business).
        let drawing = picture.drawing()
        #expect(drawing.elements.count < 60_000, "\(drawing.elements.count) elements")
        let path = dir.file("long.png")
        let words = try Self.words(ofPicture: picture, at: path)
        let png = try PNGCheck.decode(path)
        #expect(png.width == 1600 && png.height == drawing.height)
        let text = words.joined(separator: " ")
        #expect(words.contains("4:00:00.0") || words.contains("4:00:00"), "duration not found in: \(text)")
        let hours = ["0:30:00", "1:00:00", "1:30:00", "2:00:00", "2:30:00", "3:00:00", "3:30:00", "4:00:00"]
        #expect(hours.filter(words.contains).count >= 6, "time labels: \(text)")
        #expect(text.contains("Church Organ") && text.contains("Flute"), "legend: \(text)")
        #expect(text.contains("-28.5 LUFS"), "\(text)")
    }

    @Test(.enabled(if: TextRecognition.available), .timeLimit(.minutes(15)))
    func allOneHundredTwentyEightInstrumentsAreNamed() throws {
        // Program k on channel k % 15 (never the drum channel), one note each, in turn.
        var events: [MIDIEvent] = []
        var notes: [(channel: UInt8, key: UInt8, start: Int, length: Int)] = []
        for program in 0..<128 {
            let channel = UInt8(program % 15 + (program % 15 >= 9 ? 1 : 0))
            events.append(MIDIEvent(tick: program * 96, message: .programChange(channel: channel, program: UInt8(program))))
            notes.append((channel, UInt8(24 + program % 80), program * 96 + 6, 90))
        }
        notes.append((9, 42, 0, 60))
        let song = BatchCorpus.song(notes, extra: events)
        let dir = try TemporaryDirectory(prefix: "picture-128")
        let (analysis, labels) = try Self.render(song, to: dir, name: "all")
        let instruments = PictureInstrument.playing(in: labels)
        #expect(instruments.count == 129)
        #expect(Set(instruments.map(\.colour)).count == 129)
        let picture = RenderPicture(title: "all-instruments.mid", analysis: analysis, notes: labels)
        let path = dir.file("all.png")
        let words = try Self.words(ofPicture: picture, at: path)
        let png = try PNGCheck.decode(path)
        #expect(png.height == picture.drawing().height && png.height < 1600)
        let text = words.joined(separator: " ")
        let names = ["Acoustic Grand Piano", "Celesta", "Drawbar Organ", "Violin", "Trumpet", "Piccolo",
                     "Sitar", "Gunshot", "Helicopter", "Drums: Standard Kit"]
        let found = names.filter { text.lowercased().contains($0.lowercased()) }
        #expect(found.count >= 9, "found \(found) in: \(text)")
        #expect(text.contains("129 instruments"), "\(text)")
    }

    @Test func theSVGIsXMLWithItsTextAsText() throws {
        let dir = try TemporaryDirectory(prefix: "picture-svg")
        let (analysis, notes) = try Self.render(Self.quartet(seconds: 4), to: dir, name: "q")
        let picture = RenderPicture(title: "a <quartet> & more.mid", bankName: "bank", analysis: analysis, notes: notes)
        let path = dir.file("q.svg")
        try picture.data(format: .svg).write(to: URL(fileURLWithPath: path))
        let script = """
            import sys, xml.etree.ElementTree as ET
            root = ET.parse(sys.argv[1]).getroot()
            ns = "{http://www.w3.org/2000/svg}"
            assert root.tag == ns + "svg", root.tag
            print(root.get("width"), root.get("height"))
            for t in root.iter(ns + "text"):
                print(t.text)
            """
        let result = try runProcess(RealFiles.python, ["-c", script, path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "1600 \(picture.drawing().height)")
        #expect(lines.contains("a <quartet> & more.mid"))
        for text in ["Acoustic Grand Piano", "Electric Bass (finger)", "Violin", "Drums: Standard Kit", "0:00.0", "0:02.0", "C4"] {
            #expect(lines.contains(text), "\(text) not among \(lines.count) texts")
        }
    }
}
