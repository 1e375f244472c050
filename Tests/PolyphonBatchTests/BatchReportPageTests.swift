import Foundation
@testable import PolyphonBatch
import PolyphonMIDI
import PolyphonSoundFont
import PolyphonTestSupport
import Testing

/// The report page: outliers, links relative to the page, data that cannot break out of the
/// page, the page kept up to date while a batch runs, and the page of a small corpus with
/// broken files read in real headless Chromium.
@Suite("BatchReportPage")
struct BatchReportPageTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("report-in-chromium.py").path

    static func entry(_ input: String, peak: Double?, loudness: Double?) -> BatchReportEntry {
        BatchReportEntry(input: input, status: .ok, outputs: [], audioSeconds: 10, renderSeconds: 0.1,
                         peakDBFS: peak, loudnessLUFS: loudness, maxVoices: 4)
    }

    @Test func outliersAreSilentClippingHotOrFarFromTheMedian() {
        let entries = [
            Self.entry("a", peak: -6, loudness: -20),
            Self.entry("b", peak: -0.5, loudness: -19),
            Self.entry("c", peak: 0.2, loudness: -8.5),
            Self.entry("d", peak: nil, loudness: nil),
            Self.entry("e", peak: -75, loudness: nil),
            Self.entry("f", peak: -12, loudness: -31),
            BatchReportEntry(input: "g", status: .failed, error: "g: not a MIDI file"),
            BatchReportEntry(input: "h", status: .ok, audioSeconds: 2, peakDBFS: -9, loudnessLUFS: -21,
                             warnings: ["track 0, byte 40: file ends inside the track", "byte 10: header declares 2 tracks"]),
        ]
        let median = BatchOutlier.medianLoudness(of: entries)
        #expect(median == -20)
        let flags = entries.map { BatchOutlier.outliers(of: $0, medianLoudness: median) }
        #expect(flags[0].isEmpty)
        #expect(flags[1] == [.nearFullScale])
        #expect(flags[2] == [.clipping, .louderThanMedian(by: 11.5)])
        #expect(flags[3] == [.silent] && flags[4] == [.silent])
        #expect(flags[5] == [.quieterThanMedian(by: 11)])
        #expect(flags[6].isEmpty)
        #expect(flags[7] == [.repaired(defects: 2)] && flags[7][0].label == "repaired: 2 MIDI defects")
        #expect(flags[2].map(\.label) == ["clipping", "loud: +11.5 LU from median"])
        // Two files are no corpus to compare with.
        #expect(BatchOutlier.medianLoudness(of: Array(entries.prefix(2))) == nil)
    }

    @Test func outputsAreLinkedRelativeToThePage() throws {
        let dir = try TemporaryDirectory(prefix: "report-links")
        let out = dir.file("out")
        try FileManager.default.createDirectory(atPath: out + "/pop", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: out + "/pop/a b#1.png", contents: Data())
        let page = BatchReportPage(entries: [], outputDirectory: out)
        #expect(page.link(out + "/pop/song.wav") == "pop/song.wav")
        // A shard that ran elsewhere named its outputs under another prefix.
        #expect(page.link("/cluster/scratch/run7/out/pop/a b#1.png") == "pop/a%20b%231.png")
        #expect(page.link("/elsewhere/missing.png") == nil)
        #expect(BatchReportPage(entries: [], outputDirectory: out + "/").link(out + "/x.wav") == "x.wav")
    }

    @Test func inputsShowBelowTheirCommonDirectoryAndCannotBreakThePage() throws {
        let hostile = "/corpus/</script><script>alert(1)</script>.mid"
        let page = BatchReportPage(entries: [
            BatchReportEntry(input: hostile, status: .failed, error: hostile + ": <b>not MIDI</b> & more"),
            BatchReportEntry(input: "/corpus/pop/a.mid", status: .ok, audioSeconds: 2),
        ], pending: ["/corpus/pop/b.mid"], outputDirectory: "out", isRunning: true)
        let html = page.html()
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("<b>not MIDI"))
        #expect(html.contains("<meta http-equiv=\"refresh\" content=\"10\">"))
        let content = page.content()
        #expect(content.root == "/corpus")
        #expect(content.rows.map(\.name) == ["</script><script>alert(1)</script>.mid", "pop/a.mid", "pop/b.mid"])
        #expect(content.rows.map(\.status) == ["failed", "ok", "pending"])
        #expect(content.counts["pending"] == 1 && content.counts["failed"] == 1 && content.total == 3)
        #expect(BatchReportPage.path(in: "out", shard: BatchShard(index: 2, count: 4)) == "out/index-shard2.html")
    }

    @Test func aRunningBatchKeepsItsPageUpToDate() async throws {
        let dir = try TemporaryDirectory(prefix: "report-live")
        let corpus = dir.file("corpus"), out = dir.file("out")
        try BatchCorpus.write(BatchCorpus.tune(seconds: 1), to: corpus + "/quick.mid")
        // Two hours of one held note: still rendering when the page is first read.
        try BatchCorpus.write(BatchCorpus.song([(0, 69, 0, 480 * 2 * 7200)]), to: corpus + "/long.mid")
        var options = BatchOptions()
        options.workerCount = 1
        options.writesReportPage = true
        options.drawsPictures = true
        let run = try BatchRenderer(bank: SineBank.make(), options: options)
            .start(try BatchInput.collect(from: [corpus]), outputDirectory: out)
        #expect(run.reportPagePath == out + "/index.html")
        // The page is there from the start, every input pending, reloading itself.
        var page = ""
        for _ in 0..<200 where !page.contains("long.mid") {
            try await Task.sleep(nanoseconds: 50_000_000)
            page = (try? String(contentsOfFile: out + "/index.html", encoding: .utf8)) ?? ""
        }
        #expect(page.contains("\"status\":\"pending\"") && page.contains("http-equiv=\"refresh\""))
        run.cancel()
        try await run.waitUntilFinished()
        page = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(!page.contains("http-equiv=\"refresh\"") && !page.contains("\"status\":\"pending\""))
        #expect(!FileManager.default.fileExists(atPath: AtomicFile.temporaryPath(for: out + "/index.html")))
    }

    @Test(.enabled(if: RealFiles.isCI || FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")),
          .timeLimit(.minutes(10)))
    func thePageOfACorpusWithBrokenFilesWorksInChromium() async throws {
        let dir = try TemporaryDirectory(prefix: "report-chromium")
        let corpus = dir.file("corpus"), out = dir.file("out")
        try BatchCorpus.make(at: corpus)
        var options = BatchOptions()
        options.workerCount = 2
        options.drawsPictures = true
        options.writesReportPage = true
        options.bankName = "SineBank.sf2"
        let inputs = try BatchInput.collect(from: [corpus])
        let run = try BatchRenderer(bank: SineBank.make(), options: options).start(inputs, outputDirectory: out)
        let tally = try await run.waitUntilFinished()
        #expect(tally.counts[.failed] == BatchCorpus.broken.count)

        var failed: [String: String] = [:]
        for (path, reason) in BatchCorpus.broken { failed[corpus + "/" + path] = reason }
        let expected = try JSONSerialization.data(withJSONObject: ["inputs": inputs.map(\.path), "failed": failed])
        try expected.write(to: URL(fileURLWithPath: dir.file("expected.json")))
        let screenshot = ProcessInfo.processInfo.environment["POLYPHON_REPORT_SCREENSHOT"] ?? dir.file("report.png")
        let result = try runProcess(RealFiles.python, [Self.script, out + "/index.html", dir.file("expected.json"), screenshot])
        print("report in Chromium: \(result.stdout)")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: screenshot))
    }
}
