import Foundation
import Testing

/// The Slurm array example run for real on a one-node cluster started here: munged, slurmctld
/// and slurmd as this user, configured from Examples/slurm/test-cluster/slurm.conf.in under a
/// temporary directory. Required under CI (`.ci/run` installs slurm-wlm and munge); skipped
/// where Slurm is not installed.
@Suite("Slurm array", .serialized)
struct SlurmTests {
    static let daemons = ["/usr/sbin/munged", "/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/bin/sbatch"]
    static var enabled: Bool { RealFiles.isCI || daemons.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } }

    /// A one-node cluster in `directory`, stopped when dropped.
    final class Cluster {
        let directory: String
        let config: String
        var processes: [Subprocess] = []

        init(directory: String) throws {
            self.directory = directory
            let fm = FileManager.default
            for sub in ["munge", "slurmctld", "slurmd"] {
                try fm.createDirectory(atPath: directory + "/" + sub, withIntermediateDirectories: true,
                                       attributes: [.posixPermissions: 0o700])
            }
            // munged insists on a private key and socket directory.
            try fm.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory)
            let key = directory + "/munge/munge.key"
            var bytes = [UInt8](repeating: 0, count: 1024)
            for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255) }
            fm.createFile(atPath: key, contents: Data(bytes), attributes: [.posixPermissions: 0o400])
            processes.append(try Subprocess("/usr/sbin/munged", [
                "--foreground", "--force", "--socket=\(directory)/munge/munge.socket", "--key-file=\(key)",
                "--pid-file=\(directory)/munge/munged.pid", "--log-file=\(directory)/munge/munged.log",
                "--seed-file=\(directory)/munge/munged.seed"], errors: directory + "/munge/stderr"))
            try Self.waitFor("munged's socket", timeout: 20) { fm.fileExists(atPath: directory + "/munge/munge.socket") }

            var host = [CChar](repeating: 0, count: 256)
            gethostname(&host, host.count)
            let name = String(cString: host).split(separator: ".").first.map(String.init) ?? "localhost"
            let port = 20_000 + Int(getpid() % 10_000) * 2
            let template = try String(contentsOfFile: CLI.repository + "/Examples/slurm/test-cluster/slurm.conf.in",
                                      encoding: .utf8)
            let user = String(cString: getpwuid(geteuid()).pointee.pw_name)
            let text = template
                .replacingOccurrences(of: "@HOST@", with: name)
                .replacingOccurrences(of: "@USER@", with: user)
                .replacingOccurrences(of: "@CPUS@", with: "\(ProcessInfo.processInfo.activeProcessorCount)")
                .replacingOccurrences(of: "@STATE@", with: directory)
                .replacingOccurrences(of: "@CTLD_PORT@", with: "\(port)")
                .replacingOccurrences(of: "@SLURMD_PORT@", with: "\(port + 1)")
            config = directory + "/slurm.conf"
            try text.write(toFile: config, atomically: true, encoding: .utf8)
            processes.append(try Subprocess("/usr/sbin/slurmctld", ["-D", "-i", "-f", config],
                                            environment: ["SLURM_CONF": config], errors: directory + "/slurmctld.stderr"))
            processes.append(try Subprocess("/usr/sbin/slurmd", ["-D", "-f", config],
                                            environment: ["SLURM_CONF": config], errors: directory + "/slurmd.stderr"))
            try Self.waitFor("the node to be idle", timeout: 60) {
                let r = try? runProcess("/usr/bin/sinfo", ["-h", "-o", "%T"], environment: ["SLURM_CONF": self.config])
                return r?.stdout.contains("idle") == true
            }
        }

        static func waitFor(_ what: String, timeout: Double, _ condition: () -> Bool) throws {
            let deadline = Date().addingTimeInterval(timeout)
            while !condition() {
                if Date() > deadline { throw TestFailure("timed out waiting for \(what)") }
                usleep(100_000)
            }
        }

        /// The daemons' logs, for a failure's message.
        var logs: String { Self.logsOf(directory) }

        deinit {
            for p in processes.reversed() { p.stop(signal: SIGTERM, grace: 10) }
        }
    }

    @Test(.enabled(if: enabled), .timeLimit(.minutes(15)))
    func theArrayExampleRendersEveryFileOnce() throws {
        let dir = try TemporaryDirectory(prefix: "slurm")
        let corpus = dir.file("corpus"), out = dir.file("out")
        let count = 7
        for i in 0..<count {
            try BatchCorpus.write(BatchCorpus.tune(seconds: 2, variant: i), to: corpus + "/set\(i % 2)/song\(i).mid")
        }
        let cluster: Cluster
        do {
            cluster = try Cluster(directory: dir.file("cluster"))
        } catch {
            throw TestFailure("the test cluster did not start: \(error)\n\(Cluster.logsOf(dir.file("cluster")))")
        }
        let script = CLI.repository + "/Examples/slurm/batch-array.sbatch"
        // The script takes its settings from the environment, which sbatch passes on.
        let r = try runProcess("/usr/bin/sbatch", [
            "--wait", "--array=0-2", "--chdir=\(dir.path)", "--output=\(dir.path)/task-%a.log", script],
            environment: ["SLURM_CONF": cluster.config, "CORPUS": corpus, "OUTDIR": out, "POLYPHON": CLI.binary,
                          "BATCH_OPTIONS": "-s \(try CLI.bankFile())"])
        let taskLogs = (0..<3).map { (try? String(contentsOfFile: dir.path + "/task-\($0).log", encoding: .utf8)) ?? "" }
        #expect(r.status == 0, "sbatch: \(r.stdout) \(r.stderr)\n\(taskLogs.joined(separator: "\n"))\n\(cluster.logs)")

        // Three parts, disjoint, covering the corpus: every file rendered exactly once.
        let shardInputs = try (0..<3).map { try BatchTests.report(out + "/report-shard\($0).jsonl").map(\.input) }
        #expect(shardInputs.map(\.count) == [3, 2, 2])
        let all = shardInputs.flatMap { $0 }
        #expect(all.count == count && Set(all).count == count)
        let merge = try CLI.run(["batch", "merge-reports", out])
        #expect(merge.status == 0, "\(merge.stderr)")
        let merged = try BatchTests.report(out + "/report.jsonl")
        #expect(merged.count == count && merged.allSatisfy { $0.status == "ok" })
        let wavs = BatchTests.files(under: out).filter { $0.hasSuffix(".wav") }
        #expect(wavs.count == count)
        for w in wavs { #expect(BatchTests.isCompleteWAV(out + "/" + w)) }
        // Each task said what it rendered.
        for (i, log) in taskLogs.enumerated() {
            #expect(log.contains("polyphon batch: \(shardInputs[i].count) files: \(shardInputs[i].count) ok"), "task \(i): \(log)")
        }
    }
}

extension SlurmTests.Cluster {
    /// The end of each daemon's log in `directory`.
    static func logsOf(_ directory: String) -> String {
        ["munge/munged.log", "munge/stderr", "slurmctld.log", "slurmctld.stderr", "slurmd.log", "slurmd.stderr"]
            .map { name in "== \(name)\n" + ((try? String(contentsOfFile: directory + "/" + name, encoding: .utf8))?
                .split(separator: "\n").suffix(20).joined(separator: "\n") ?? "") }
            .joined(separator: "\n")
    }
}
