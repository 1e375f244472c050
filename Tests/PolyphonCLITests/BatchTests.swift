import Foundation
import PolyphonAudio
import PolyphonMIDI
import Testing

/// `polyphon batch` end to end: a corpus with good and broken files, resuming after SIGKILL,
/// the same bytes whatever the parallelism or sharding, stems and labels.
@Suite("polyphon batch", .serialized)
struct BatchTests {
    struct Entry: Decodable {
        var input: String
        var status: String
        var outputs: [String]
        var error: String?
        var audioSeconds: Double?
        var renderSeconds: Double?
        var peakDBFS: Double?
        var loudnessLUFS: Double?
        var maxVoices: Int?
    }

    static func report(_ path: String) throws -> [Entry] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try data.split(separator: 0x0A).map { try JSONDecoder().decode(Entry.self, from: Data($0)) }
    }

    /// Every regular file under `root`, relative to it, sorted.
    static func files(under root: String) -> [String] {
        (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + $0, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.sorted()
    }

    static func batch(_ args: [String], environment: [String: String] = [:]) throws -> CLI.Result {
        try CLI.run(["batch"] + args + ["-s", try CLI.bankFile(), "-q"], environment: environment)
    }

    /// A WAV file is whole when its RIFF and data sizes agree with its length.
    static func isCompleteWAV(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path), data.count >= 44 else { return false }
        func u32(_ at: Int) -> Int { data[at..<at + 4].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) } }
        return u32(4) == data.count - 8 && (try? AudioFile(contentsOf: path)) != nil
    }

    @Test func aCorpusRendersItsGoodFilesAndReportsTheBrokenOnes() throws {
        let dir = try TemporaryDirectory(prefix: "batch-corpus")
        let corpus = dir.file("corpus"), out = dir.file("out")
        try BatchCorpus.make(at: corpus)
        let r = try Self.batch([corpus, "-o", out, "--jobs", "2"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stdout.contains("8 files: 5 ok, 0 skipped, 3 failed, 0 timed out"), "\(r.stdout)")

        // Outputs mirror the tree; the two a.mid do not collide; the text file is not an input.
        let outputs = Self.files(under: out).filter { $0.hasSuffix(".wav") }
        #expect(outputs == ["a.wav", "karaoke.wav", "sub/C.wav", "sub/a.wav", "sub/deeper/b.wav"])
        for o in outputs { #expect(Self.isCompleteWAV(out + "/" + o), "\(o)") }
        #expect(!Self.files(under: out).contains { $0.hasSuffix(".partial") })

        let entries = try Self.report(out + "/report.jsonl")
        #expect(entries.count == 8)
        #expect(entries.map(\.input) == entries.map(\.input).sorted())
        for name in BatchCorpus.good {
            let e = try #require(entries.first { $0.input.hasSuffix("corpus/" + name) })
            #expect(e.status == "ok")
            #expect(e.outputs.count == 1 && FileManager.default.fileExists(atPath: e.outputs[0]))
            #expect((2...5).contains(e.audioSeconds ?? 0))
            #expect((e.peakDBFS ?? 0) < 0 && (e.loudnessLUFS ?? 0) < 0 && (e.maxVoices ?? 0) >= 2 && e.renderSeconds != nil)
            #expect(e.error == nil)
        }
        for (name, reason) in BatchCorpus.broken {
            let e = try #require(entries.first { $0.input.hasSuffix("corpus/" + name) })
            #expect(e.status == "failed")
            #expect(e.outputs.isEmpty)
            #expect(e.error?.contains(reason) == true, "\(name): \(e.error ?? "no error")")
            #expect(r.stderr.contains(name), "the failure is said on stderr too")
        }
    }

    @Test func aRunAgainSkipsWhatIsDoneAndKeepsOneLinePerInput() throws {
        let dir = try TemporaryDirectory(prefix: "batch-rerun")
        let corpus = dir.file("corpus"), out = dir.file("out")
        try BatchCorpus.make(at: corpus)
        _ = try Self.batch([corpus, "-o", out])
        let before = try Self.report(out + "/report.jsonl")
        let again = try Self.batch([corpus, "-o", out])
        #expect(again.status == 1)
        #expect(again.stdout.contains("8 files: 0 ok, 5 skipped, 3 failed"), "\(again.stdout)")
        let after = try Self.report(out + "/report.jsonl")
        #expect(after.map(\.input) == before.map(\.input))
        for (b, a) in zip(before, after) where b.status == "ok" {
            #expect(a.status == "skipped")
            #expect(a.outputs == b.outputs && a.audioSeconds == b.audioSeconds, "a skipped line keeps the figures")
        }
    }

    @Test func aBatchKilledPartWayFinishesWhenRunAgain() throws {
        let dir = try TemporaryDirectory(prefix: "batch-kill")
        let corpus = dir.file("corpus"), out = dir.file("out")
        let count = 12
        for i in 0..<count {
            try BatchCorpus.write(BatchCorpus.tune(seconds: 15, variant: i), to: corpus + String(format: "/song%02d.mid", i))
        }
        let process = try Subprocess(CLI.binary, ["batch", corpus, "-o", out, "--jobs", "2", "-s", try CLI.bankFile(), "-q"])
        // Kill it once some files are done, the others still being written.
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline && process.isRunning {
            let done = (FileManager.default.contents(atPath: out + "/report.jsonl") ?? Data()).filter { $0 == 0x0A }.count
            if done >= 3 { break }
            usleep(5_000)
        }
        kill(process.pid, SIGKILL)
        #expect(process.wait(timeout: 10) == 128 + SIGKILL)

        // Nothing under a final name is cut short.
        let finished = Self.files(under: out).filter { $0.hasSuffix(".wav") }
        #expect(finished.count >= 3 && finished.count < count, "killed after \(finished.count) of \(count)")
        for f in finished { #expect(Self.isCompleteWAV(out + "/" + f), "\(f) is truncated") }
        let stamps = Dictionary(uniqueKeysWithValues: try finished.map {
            ($0, try FileManager.default.attributesOfItem(atPath: out + "/" + $0)[.modificationDate] as? Date)
        })

        let again = try Self.batch([corpus, "-o", out, "--jobs", "2"])
        #expect(again.status == 0, "\(again.stderr)")
        let entries = try Self.report(out + "/report.jsonl")
        #expect(entries.count == count)
        #expect(Set(entries.map(\.input)).count == count)
        #expect(entries.filter { $0.status == "skipped" }.count == finished.count)
        #expect(entries.filter { $0.status == "ok" }.count == count - finished.count)
        // What was done was not done again.
        for f in finished {
            let date = try FileManager.default.attributesOfItem(atPath: out + "/" + f)[.modificationDate] as? Date
            #expect(date == stamps[f]!, "\(f) was rendered twice")
        }
        let all = Self.files(under: out)
        #expect(all.filter { $0.hasSuffix(".wav") }.count == count)
        #expect(!all.contains { $0.hasSuffix(".partial") })
        for f in all where f.hasSuffix(".wav") { #expect(Self.isCompleteWAV(out + "/" + f)) }
    }

    @Test func outputsAreTheSameBytesWhateverTheJobsOrShards() throws {
        let dir = try TemporaryDirectory(prefix: "batch-same")
        let corpus = dir.file("corpus")
        for (i, name) in BatchCorpus.good.enumerated() {
            try BatchCorpus.write(BatchCorpus.tune(seconds: 3, variant: i), to: corpus + "/" + name)
        }
        let one = dir.file("one"), two = dir.file("two"), shards = dir.file("shards")
        #expect(try Self.batch([corpus, "-o", one, "--jobs", "1", "--labels"]).status == 0)
        #expect(try Self.batch([corpus, "-o", two, "--jobs", "2", "--labels"]).status == 0)
        for part in ["0/3", "1/3", "2/3"] {
            #expect(try Self.batch([corpus, "-o", shards, "--shard", part, "--labels"]).status == 0)
        }
        let names = Self.files(under: one).filter { !$0.hasPrefix("report") }
        #expect(names.count == 2 * BatchCorpus.good.count)
        #expect(Self.files(under: two).filter { !$0.hasPrefix("report") } == names)
        #expect(Self.files(under: shards).filter { !$0.hasPrefix("report") } == names)
        for n in names {
            let a = FileManager.default.contents(atPath: one + "/" + n)
            #expect(a == FileManager.default.contents(atPath: two + "/" + n), "\(n): --jobs 1 vs 2")
            #expect(a == FileManager.default.contents(atPath: shards + "/" + n), "\(n): shards")
        }
        // And the same bytes as `polyphon render` of that file.
        let single = dir.file("single.wav")
        #expect(try CLI.run(["render", corpus + "/sub/a.mid", "-o", single, "-s", try CLI.bankFile(), "-q"]).status == 0)
        #expect(FileManager.default.contents(atPath: single) == FileManager.default.contents(atPath: one + "/sub/a.wav"))

        // Each shard wrote its own report; merged, they cover every input once.
        let reports = Self.files(under: shards).filter { $0.hasPrefix("report") }
        #expect(reports == ["report-shard0.jsonl", "report-shard1.jsonl", "report-shard2.jsonl"])
        let shardInputs = try reports.flatMap { try Self.report(shards + "/" + $0).map(\.input) }
        #expect(shardInputs.count == BatchCorpus.good.count && Set(shardInputs).count == BatchCorpus.good.count)
        let merge = try CLI.run(["batch", "merge-reports", shards])
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(try Self.report(shards + "/report.jsonl").map(\.input) == (try Self.report(one + "/report.jsonl").map(\.input)))
    }

    @Test func theShardComesFromTheScheduler() throws {
        let dir = try TemporaryDirectory(prefix: "batch-env")
        let corpus = dir.file("corpus")
        for (i, name) in BatchCorpus.good.enumerated() {
            try BatchCorpus.write(BatchCorpus.tune(seconds: 1, variant: i), to: corpus + "/" + name)
        }
        // A Slurm array --array=1-2: task ids 1 and 2 are parts 0 and 1 of 2.
        let slurm = dir.file("slurm")
        for id in ["1", "2"] {
            let r = try Self.batch([corpus, "-o", slurm],
                                   environment: ["SLURM_ARRAY_TASK_ID": id, "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "2"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let parts = try (0..<2).map { try Self.report(slurm + "/report-shard\($0).jsonl").map(\.input) }
        #expect(parts[0].count == 3 && parts[1].count == 2)
        #expect(Set(parts[0]).isDisjoint(with: parts[1]))
        // Kubernetes: the index needs a count.
        let k8s = dir.file("k8s")
        let missing = try Self.batch([corpus, "-o", k8s], environment: ["JOB_COMPLETION_INDEX": "0"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("JOB_COMPLETIONS"))
        let k = try Self.batch([corpus, "-o", k8s, "--shard-count", "5"], environment: ["JOB_COMPLETION_INDEX": "4"])
        #expect(k.status == 0)
        #expect(try Self.report(k8s + "/report-shard4.jsonl").count == 1)
        // --shard wins over the environment; a bad one is a usage error.
        let explicit = try Self.batch([corpus, "-o", dir.file("explicit"), "--shard", "0/1"],
                                      environment: ["AWS_BATCH_JOB_ARRAY_INDEX": "3", "AWS_BATCH_JOB_ARRAY_SIZE": "4"])
        #expect(explicit.status == 0)
        #expect(try Self.report(dir.file("explicit") + "/report-shard0.jsonl").count == 5)
        #expect(try Self.batch([corpus, "-o", k8s, "--shard", "2/2"]).status == 64)
    }

    @Test func aFileOverItsTimeIsAbandoned() throws {
        let dir = try TemporaryDirectory(prefix: "batch-timeout")
        let corpus = dir.file("corpus"), out = dir.file("out")
        // Two hours of one held note: far more than a few seconds' work. The limit, 5 s, is
        // far more than the short file takes, even in a debug build on a busy machine (at
        // 1 s a debug build at load 10 timed the short file out too).
        try BatchCorpus.write(BatchCorpus.song([(0, 69, 0, 480 * 2 * 7200)]), to: corpus + "/long.mid")
        try BatchCorpus.write(BatchCorpus.tune(seconds: 1), to: corpus + "/short.mid")
        let started = Date()
        let r = try Self.batch([corpus, "-o", out, "--timeout", "5"])
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(r.status == 1)
        let entries = try Self.report(out + "/report.jsonl")
        #expect(entries.map(\.status) == ["timeout", "ok"])
        #expect(entries[0].error?.contains("longer than 5 s of wall time") == true, "\(entries[0].error ?? "")")
        #expect(Self.files(under: out) == ["report.jsonl", "short.wav"])
        // A lower --max-duration refuses the long file up front.
        let refused = try Self.batch([corpus + "/long.mid", "-o", dir.file("refused"), "--max-duration", "60"])
        #expect(refused.status == 1)
        #expect(try Self.report(dir.file("refused") + "/report.jsonl").first?.error?.contains("past the maximum duration of 60.0 s") == true)
    }

    @Test func programStemsAddUpToTheMixAndLabelsListTheNotes() throws {
        let dir = try TemporaryDirectory(prefix: "batch-stems")
        let corpus = dir.file("corpus"), out = dir.file("out")
        let song = BatchCorpus.song([(0, 60, 0, 480), (1, 64, 240, 480), (2, 67, 480, 960), (9, 38, 100, 200)],
                                    programs: [1: 0, 2: 40],
                                    extra: [MIDIEvent(tick: 0, message: .controlChange(channel: 1, controller: 91, value: 100))])
        try BatchCorpus.write(song, to: corpus + "/song.mid")
        let r = try Self.batch([corpus, "-o", out, "--stems", "program", "--labels", "--label-format", "json", "--bits", "32f"])
        #expect(r.status == 0, "\(r.stderr)")
        let names = Self.files(under: out)
        #expect(names == ["report.jsonl", "song-drums000-Kit.wav", "song-program000-Sine-Lead.wav", "song-program040.wav",
                          "song.labels.json", "song.wav"])
        let mix = try AudioFile(contentsOf: out + "/song.wav")
        let stems = try names.filter { $0.hasPrefix("song-") }.map { try AudioFile(contentsOf: out + "/" + $0) }
        var maxError: Float = 0
        for c in 0..<2 {
            for i in 0..<mix.frameCount {
                maxError = max(maxError, abs(stems.reduce(Float(0)) { $0 + $1.channels[c][i] } - mix.channels[c][i]))
            }
        }
        #expect(maxError < 1e-5)
        let entry = try #require(try Self.report(out + "/report.jsonl").first)
        #expect(entry.outputs.first?.hasSuffix("song.wav") == true && entry.outputs.count == 5)

        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/song.labels.json"))) as? [String: Any])
        let notes = try #require(json["notes"] as? [[String: Any]])
        let rows = notes.map { [$0["onsetFrame"] as? Int, $0["offsetFrame"] as? Int, $0["pitch"] as? Int, $0["channel"] as? Int, $0["program"] as? Int] }
        // 120 BPM at 480 PPQN: 960 ticks a second.
        let f = { (t: Int) in Int((Double(t) / 960 * 44100).rounded()) }
        #expect(rows == [[f(0), f(480), 60, 1, 0], [f(100), f(300), 38, 10, 0], [f(240), f(720), 64, 2, 0],
                         [f(480), f(1440), 67, 3, 40]])
    }

    /// The costliest song is rendered first, whatever its name: a long one started last would
    /// keep one core busy after the others are done. With one worker, each mix is renamed into
    /// place as its render ends, so the order of their modification times is the work's order.
    @Test func theCostliestSongsAreRenderedFirst() throws {
        let dir = try TemporaryDirectory(prefix: "batch-order")
        let corpus = dir.file("corpus"), out = dir.file("out")
        // Sorted by path: a short tune, a long one, a chord held for as long, a tiny one.
        try BatchCorpus.write(BatchCorpus.tune(seconds: 1), to: corpus + "/a.mid")
        try BatchCorpus.write(BatchCorpus.tune(seconds: 12, variant: 3), to: corpus + "/b.mid")
        let chord = (0..<8).map { (channel: UInt8(0), key: UInt8(48 + 3 * $0), start: 0, length: 480 * 16) }
        try BatchCorpus.write(BatchCorpus.song(chord), to: corpus + "/c.mid")
        try BatchCorpus.write(BatchCorpus.song([(0, 60, 0, 120)]), to: corpus + "/d.mid")
        let r = try Self.batch([corpus, "-o", out, "--jobs", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        func finished(_ name: String) throws -> Date {
            try #require(try FileManager.default.attributesOfItem(atPath: out + "/" + name)[.modificationDate] as? Date)
        }
        let order = try ["a.wav", "b.wav", "c.wav", "d.wav"].sorted { try finished($0) < finished($1) }
        // b: 12 s, 3 voices at a time; c: 8 voices for 8 s; a: 1 s; d: one short note.
        #expect(order == ["b.wav", "c.wav", "a.wav", "d.wav"])
    }

    @Test func picturesArePNGOrSVGAndTheReportPageLinksThem() throws {
        let dir = try TemporaryDirectory(prefix: "batch-picture")
        let corpus = dir.file("corpus"), out = dir.file("out")
        try BatchCorpus.write(BatchCorpus.tune(seconds: 3), to: corpus + "/song.mid")
        try BatchCorpus.write(bytes: Array("not MIDI".utf8), to: corpus + "/broken.mid")
        let r = try Self.batch([corpus, "-o", out, "--picture", "--html"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stdout.contains("page \(out)/index.html"))
        // Every chunk's CRC and the pixel data, checked by Python's zlib.
        let png = try PNGCheck.decode(out + "/song.png")
        #expect(png.width == 1600 && png.height > 900 && png.colourType == 3 && png.distinctValues >= 10)
        let page = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(page.contains("\"picture\":\"song.png\"") && page.contains("\"audio\":\"song.wav\""))
        #expect(page.contains("\"status\":\"failed\"") && page.contains("broken.mid"))
        #expect(!page.contains("<meta http-equiv=\"refresh\""), "a finished batch's page does not reload")

        // `render --picture` draws the same picture beside its output; SVG on request.
        let rendered = dir.file("rendered.wav")
        for format in ["png", "svg"] {
            let render = try CLI.run(["render", corpus + "/song.mid", "-o", rendered, "--picture", "--picture-format", format,
                                      "-s", try CLI.bankFile(), "-q"])
            #expect(render.status == 0, "\(render.stderr)")
        }
        #expect(try PNGCheck.decode(dir.file("rendered.png")).width == 1600)
        let svg = try String(contentsOfFile: dir.file("rendered.svg"), encoding: .utf8)
        #expect(svg.hasPrefix("<?xml") && svg.contains(">song.mid</text>") && svg.contains(">Acoustic Grand Piano</text>"))

        // merge-reports --html: the page for every shard's inputs.
        let shards = dir.file("shards")
        for part in 0..<2 {
            let s = try Self.batch([corpus, "-o", shards, "--picture", "--shard", "\(part)/2"])
            #expect(s.status == (part == 0 ? 1 : 0), "\(s.stderr)")
        }
        let merge = try CLI.run(["batch", "merge-reports", shards, "--html"])
        #expect(merge.status == 1 && merge.stdout.contains("page \(shards)/index.html"), "\(merge.stdout) \(merge.stderr)")
        let merged = try String(contentsOfFile: shards + "/index.html", encoding: .utf8)
        #expect(merged.contains("\"picture\":\"song.png\"") && merged.contains("broken.mid"))
    }

    @Test func usageErrorsExit64() throws {
        #expect(try CLI.run(["batch", "-o", CLI.workDirectory + "/nothing"]).status == 64)
        #expect(try CLI.run(["batch", try CLI.songFile(), "-o", CLI.workDirectory + "/x", "--jobs", "0"]).status == 64)
        #expect(try CLI.run(["batch", try CLI.songFile(), "-o", CLI.workDirectory + "/x", "--format", "mp4"]).status == 64)
        let help = try CLI.run(["batch", "render", "--help"])
        #expect(help.stdout.contains("--shard") && help.stdout.contains("--stems"))
    }
}
