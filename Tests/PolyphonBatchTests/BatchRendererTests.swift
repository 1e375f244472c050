import Foundation
import PolyphonAudio
import PolyphonBatch
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonTestSupport
import Testing

/// ``BatchRenderer`` driven directly: a corpus built in code with files that render, fail and
/// time out; the report; the results stream; cancelling; resuming; shards.
@Suite("BatchRenderer")
struct BatchRendererTests {
    static let bank = SineBank.make()

    static func options(workers: Int = 2, timeout: Double? = nil) -> BatchOptions {
        var options = BatchOptions()
        options.workerCount = workers
        options.timeout = timeout
        return options
    }

    /// Every entry the run delivers, then its final tally.
    static func collect(_ run: BatchRun) async throws -> ([BatchReportEntry], BatchTally) {
        var entries: [BatchReportEntry] = []
        for await entry in run.results { entries.append(entry) }
        return (entries, try await run.waitUntilFinished())
    }

    /// Regular files under `root`, relative to it, sorted.
    static func files(under root: String) -> [String] {
        (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + $0, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.sorted()
    }

    @Test func goodFilesRenderBrokenOnesFailAndASlowOneTimesOut() async throws {
        let dir = try TemporaryDirectory(prefix: "batch-library")
        let corpus = dir.file("corpus"), out = dir.file("out")
        try BatchCorpus.write(BatchCorpus.tune(seconds: 1), to: corpus + "/good.mid")
        try BatchCorpus.write(bytes: Array("not a MIDI file".utf8), to: corpus + "/garbage.mid")
        // The good file cut short: it plays as far as it goes, and the report says what was repaired.
        let goodBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: corpus + "/good.mid")))
        try BatchCorpus.write(bytes: Array(goodBytes.prefix(goodBytes.count * 6 / 10)), to: corpus + "/cut.mid")
        // Four hours of one held note: far more than the limit's work.
        try BatchCorpus.write(BatchCorpus.song([(0, 69, 0, 480 * 2 * 14_400)]), to: corpus + "/slow.mid")
        let inputs = try BatchInput.collect(from: [corpus])
        #expect(inputs.map(\.outputStem) == ["cut", "garbage", "good", "slow"])

        // 12 s: a one-second file's render never takes that long, even in a debug build on a
        // 2-core machine running other tests (5 s was once exceeded at load 24).
        let run = try BatchRenderer(bank: Self.bank, options: Self.options(timeout: 12)).start(inputs, outputDirectory: out)
        let (delivered, tally) = try await Self.collect(run)
        #expect(run.isFinished && !run.isCancelled)
        #expect(tally.total == 4 && tally.done == 4 && tally.failures == 2)
        #expect(tally.counts == [.ok: 2, .failed: 1, .timeout: 1])
        #expect((1.2...5).contains(tally.audioSeconds))

        // The report: one line per input, sorted, the same entries the stream delivered.
        #expect(run.reportPath == out + "/report.jsonl")
        let report = BatchReport.read(run.reportPath)
        #expect(report.map(\.input) == inputs.map(\.path))
        #expect(Set(report) == Set(delivered))
        let byName = Dictionary(uniqueKeysWithValues: report.map { (($0.input as NSString).lastPathComponent, $0) })
        let good = try #require(byName["good.mid"])
        #expect(good.status == .ok && good.outputs == [out + "/good.wav"] && good.error == nil && good.warnings == nil)
        let cut = try #require(byName["cut.mid"])
        #expect(cut.status == .ok && (cut.audioSeconds ?? 9) < (good.audioSeconds ?? 0))
        #expect(cut.warnings?.contains { $0.contains("track 0") && $0.contains("ends inside the track") } == true,
                "\(cut.warnings ?? [])")
        #expect(BatchOutlier.outliers(of: cut, medianLoudness: nil).contains(.repaired(defects: cut.warnings?.count ?? 0)))
        #expect((good.peakDBFS ?? 0) < 0 && (good.loudnessLUFS ?? 0) < 0 && (good.maxVoices ?? 0) >= 2)
        #expect(try AudioFile(contentsOf: out + "/good.wav").frameCount == Int(((good.audioSeconds ?? 0) * 44_100).rounded()))
        let garbage = try #require(byName["garbage.mid"])
        #expect(garbage.status == .failed && garbage.outputs.isEmpty && garbage.error?.contains("garbage.mid") == true)
        let slow = try #require(byName["slow.mid"])
        #expect(slow.status == .timeout && slow.error?.contains("longer than 12 s of wall time") == true)
        // Abandoned within a block of its limit, not rendered for four hours.
        #expect((12...90).contains(slow.renderSeconds ?? 0))
        // Nothing but the good file's mix and the report; no temporary left behind.
        #expect(Self.files(under: out) == ["cut.wav", "good.wav", "report.jsonl"])
    }

    @Test func aRunAgainSkipsWhatIsDoneKeepingItsFigures() async throws {
        let dir = try TemporaryDirectory(prefix: "batch-library-resume")
        let corpus = dir.file("corpus"), out = dir.file("out")
        for (i, name) in ["a.mid", "sub/b.mid", "sub/c.kar"].enumerated() {
            try BatchCorpus.write(BatchCorpus.tune(seconds: 1, variant: i), to: corpus + "/" + name)
        }
        var options = Self.options()
        options.labels = .csv
        let renderer = BatchRenderer(bank: Self.bank, options: options)
        let inputs = try BatchInput.collect(from: [corpus])
        let (first, _) = try await Self.collect(try renderer.start(inputs, outputDirectory: out))
        #expect(first.allSatisfy { $0.status == .ok && $0.outputs.count == 2 })
        func stamps() throws -> [String: Date] {
            var stamps: [String: Date] = [:]
            for name in Self.files(under: out) where name != "report.jsonl" {
                stamps[name] = try FileManager.default.attributesOfItem(atPath: out + "/" + name)[.modificationDate] as? Date
            }
            return stamps
        }
        let before = try stamps()
        #expect(before.count == 6)

        let (second, tally) = try await Self.collect(try renderer.start(inputs, outputDirectory: out))
        #expect(tally.counts == [.skipped: 3] && tally.audioSeconds == 0)
        for entry in second {
            let before = try #require(first.first { $0.input == entry.input })
            #expect(entry.status == .skipped && entry.outputs == before.outputs && entry.audioSeconds == before.audioSeconds)
        }
        #expect(try stamps() == before, "nothing but the report is written again")
        #expect(BatchReport.read(out + "/report.jsonl").map(\.status) == [.skipped, .skipped, .skipped])
    }

    @Test func cancellingStopsTheRunAndARunAgainFinishesIt() async throws {
        let dir = try TemporaryDirectory(prefix: "batch-library-cancel")
        let corpus = dir.file("corpus"), out = dir.file("out")
        let count = 8
        for i in 0..<count {
            try BatchCorpus.write(BatchCorpus.tune(seconds: 30, variant: i), to: corpus + String(format: "/song%02d.mid", i))
        }
        let renderer = BatchRenderer(bank: Self.bank, options: Self.options(workers: 1))
        let inputs = try BatchInput.collect(from: [corpus])
        let run = try renderer.start(inputs, outputDirectory: out)
        // The consumer runs on a thread of its own, so it cancels as soon as the second result
        // arrives, whatever the rest of the test suite keeps the cooperative pool busy with.
        let executor = ThreadTaskExecutor(label: "batch-cancel-consumer")
        let delivered = await Task(executorPreference: executor) {
            var delivered: [BatchReportEntry] = []
            for await entry in run.results {
                delivered.append(entry)
                if delivered.count == 2 { run.cancel() }
            }
            return delivered
        }.value
        let tally = try await run.waitUntilFinished()
        #expect(run.isCancelled)
        // A render that ended between the second result and the cancel is kept, with its
        // entry; the one under way when cancelled stopped within a block and left nothing.
        #expect(delivered.count >= 2 && tally.done == delivered.count && tally.done < count && tally.total == count)
        #expect(BatchReport.read(run.reportPath).map(\.input) == delivered.map(\.input).sorted())
        #expect(Self.files(under: out).filter { $0.hasSuffix(".wav") }.count == tally.done)
        #expect(!Self.files(under: out).contains { $0.contains(".partial") })

        let (rest, again) = try await Self.collect(try renderer.start(inputs, outputDirectory: out))
        #expect(again.counts == [.skipped: tally.done, .ok: count - tally.done])
        #expect(Set(rest.filter { $0.status == .skipped }.map(\.input)) == Set(delivered.map(\.input)))
        #expect(BatchReport.read(run.reportPath).count == count)
    }

    @Test func cancellingTheIteratingTaskCancelsTheRun() async throws {
        let dir = try TemporaryDirectory(prefix: "batch-library-task")
        let corpus = dir.file("corpus")
        for i in 0..<4 {
            try BatchCorpus.write(BatchCorpus.tune(seconds: 60, variant: i), to: corpus + "/song\(i).mid")
        }
        let run = try BatchRenderer(bank: Self.bank, options: Self.options(workers: 1))
            .start(try BatchInput.collect(from: [corpus]), outputDirectory: dir.file("out"))
        // Cancelled before it first asks for a result: its iteration ends at once and that
        // cancels the run. The task runs on a thread of its own so that it does so promptly.
        let consumer = Task(executorPreference: ThreadTaskExecutor(label: "batch-task-consumer")) {
            for await _ in run.results {}
        }
        consumer.cancel()
        await consumer.value
        let tally = try await run.waitUntilFinished()
        #expect(run.isCancelled && tally.done < 4)
    }

    @Test func shardsPartitionTheSortedInputsAndNameTheirReports() async throws {
        let inputs = (0..<10).map { BatchInput(path: "in/\($0).mid", outputStem: "\($0)") }
        let parts = (0..<3).map { BatchShard(index: $0, count: 3).part(of: inputs) }
        #expect(parts.map(\.count) == [4, 3, 3])
        #expect(parts.flatMap { $0 }.count == inputs.count && Set(parts.flatMap { $0 }) == Set(inputs))
        #expect(parts[1].map(\.outputStem) == ["1", "4", "7"])
        #expect(BatchShard("2/3") == BatchShard(index: 2, count: 3, source: "--shard"))
        for bad in ["3/3", "-1/2", "1", "a/b", "1/0"] { #expect(BatchShard(bad) == nil, "\(bad)") }
        #expect(BatchShard(index: 1, count: 4).reportPath("out/report.jsonl") == "out/report-shard1.jsonl")
        #expect(BatchShard(index: 1, count: 4).reportPath("out/report") == "out/report-shard1")

        // From schedulers' environments.
        let slurm = try BatchShard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "4", "SLURM_ARRAY_TASK_MAX": "7"])
        #expect(slurm?.index == 1 && slurm?.count == 4 && slurm?.source == "SLURM_ARRAY_TASK_ID")
        #expect(try BatchShard.fromEnvironment(["JOB_COMPLETION_INDEX": "2"], count: 3)?.index == 2)
        #expect(try BatchShard.fromEnvironment(["AWS_BATCH_JOB_ARRAY_INDEX": "0", "AWS_BATCH_JOB_ARRAY_SIZE": "2"])?.count == 2)
        #expect(try BatchShard.fromEnvironment([:]) == nil)
        #expect(throws: BatchShard.EnvironmentError.countMissing(indexVariable: "JOB_COMPLETION_INDEX", countVariable: "JOB_COMPLETIONS")) {
            try BatchShard.fromEnvironment(["JOB_COMPLETION_INDEX": "0"])
        }
        #expect(throws: BatchShard.EnvironmentError.indexOutOfRange(indexVariable: "AWS_BATCH_JOB_ARRAY_INDEX", index: 4, count: 4)) {
            try BatchShard.fromEnvironment(["AWS_BATCH_JOB_ARRAY_INDEX": "4", "AWS_BATCH_JOB_ARRAY_SIZE": "4"])
        }

        // Rendered as shards, then merged: every input once, the same as one run.
        let dir = try TemporaryDirectory(prefix: "batch-library-shards")
        let corpus = dir.file("corpus"), out = dir.file("out")
        for name in BatchCorpus.good { try BatchCorpus.write(BatchCorpus.tune(seconds: 1), to: corpus + "/" + name) }
        let all = try BatchInput.collect(from: [corpus])
        let renderer = BatchRenderer(bank: Self.bank, options: Self.options())
        for index in 0..<3 {
            let run = try renderer.start(all, outputDirectory: out, shard: BatchShard(index: index, count: 3))
            #expect(run.inputs == BatchShard(index: index, count: 3).part(of: all))
            #expect(run.reportPath == out + "/report-shard\(index).jsonl")
            #expect(try await run.waitUntilFinished().counts == [.ok: run.inputs.count])
        }
        let reports = try BatchReport.shardReports(in: out)
        #expect(reports == (0..<3).map { out + "/report-shard\($0).jsonl" })
        let merged = BatchReport.merged(reports.flatMap(BatchReport.read))
        #expect(merged.map(\.input) == all.map(\.path))
        #expect(BatchTally(entries: merged).counts == [.ok: all.count])
    }

    /// A corpus renders one file per core; a short list spreads each file over the cores left
    /// over; `--threads` without `--jobs` renders as many files as the cores then hold.
    @Test func theCoresAreDividedBetweenFilesAndThreads() {
        var options = BatchOptions()
        options.workerCount = 16
        #expect(options.threadCount(forInputs: 1000) == 1)
        #expect(options.threadCount(forInputs: 16) == 1)
        #expect(options.threadCount(forInputs: 3) == 5)
        #expect(options.threadCount(forInputs: 1) == 16)
        #expect(options.threadCount(forInputs: 0) == 16)
        options.divide(cores: 16, threadsPerInput: 4)
        #expect(options.workerCount == 4 && options.threadCount(forInputs: 1000) == 4)
        options.divide(cores: 2, threadsPerInput: 4)
        #expect(options.workerCount == 1 && options.threadCount(forInputs: 1) == 4)
    }

    @Test func inputsMirrorTheTreeAndNeverCollide() throws {
        let dir = try TemporaryDirectory(prefix: "batch-library-inputs")
        let corpus = dir.file("corpus")
        try BatchCorpus.make(at: corpus)
        try BatchCorpus.write(BatchCorpus.tune(seconds: 1), to: corpus + "/a.kar")
        let manifest = dir.file("list.txt")
        try "# a comment\n\n\(corpus)/sub/a.mid\n\(dir.file("missing.mid"))\n".write(toFile: manifest, atomically: true, encoding: .utf8)
        let inputs = try BatchInput.collect(from: [corpus, corpus + "/a.mid"], manifest: manifest)
        // Sorted by path, each file once (a.mid and sub/a.mid are named twice); the stems are
        // relative to the inputs' common directory; a.mid and a.kar keep their extensions so
        // their outputs differ; the missing file is kept, to be reported; notes.txt is not MIDI.
        #expect(inputs.map(\.path) == ["a.kar", "a.mid", "broken/garbage.mid", "broken/truncated.mid", "broken/years.mid",
                                        "karaoke.kar", "sub/C.MID", "sub/a.mid", "sub/deeper/b.midi"].map { corpus + "/" + $0 }
                                        + [dir.file("missing.mid")])
        #expect(inputs.map(\.outputStem) == ["a.kar", "a.mid", "broken/garbage", "broken/truncated", "broken/years", "karaoke",
                                              "sub/C", "sub/a", "sub/deeper/b"].map { "corpus/" + $0 } + ["missing"])
        #expect(throws: BatchError.self) { try BatchInput.collect(from: [], manifest: dir.file("no-such-list")) }
    }

    @Test func theReportMergesLaterLinesOverEarlierOnes() throws {
        let a = BatchReportEntry(input: "a.mid", status: .failed, error: "a.mid: truncated")
        let b = BatchReportEntry(input: "b.mid", status: .ok, outputs: ["b.wav"], audioSeconds: 2, peakDBFS: -3)
        let a2 = BatchReportEntry(input: "a.mid", status: .ok, outputs: ["a.wav"], audioSeconds: 1)
        #expect(BatchReport.merged([b, a, a2]) == [a2, b])
        // Fields that do not apply are left out of the line; keys are sorted.
        #expect(String(decoding: BatchReport.line(a), as: UTF8.self)
                == #"{"error":"a.mid: truncated","input":"a.mid","outputs":[],"status":"failed"}"# + "\n")
        let dir = try TemporaryDirectory(prefix: "batch-library-report")
        try BatchReport.write([a2, b], to: dir.file("r.jsonl"))
        // A line cut short by a kill is skipped when read back.
        let handle = try #require(FileHandle(forWritingAtPath: dir.file("r.jsonl")))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"input":"c.mid","sta"#.utf8))
        try handle.close()
        #expect(BatchReport.read(dir.file("r.jsonl")) == [a2, b])
        #expect(BatchReport.read(dir.file("none.jsonl")).isEmpty)
        var tally = BatchTally(entries: [a2, b])
        tally.add(a)
        #expect(tally.done == 3 && tally.failures == 1 && tally.audioSeconds == 3 && tally.speed(wallSeconds: 2) == 1.5)
    }
}
