import Foundation
import Testing

/// `polyphon jam` from a checkout: it builds the jam server (the package in Jam/) when it has
/// not been built or a source changed, and starts it at once otherwise. Under CI the jam
/// package's own tests have built it before; locally the test runs once it is built
/// (`swift build --package-path Jam`), as a first build takes many minutes.
@Suite("polyphon jam", .serialized)
struct JamCommandTests {
    static let jamPackage = CLI.repository + "/Jam"
    static var serverBuilt: Bool { FileManager.default.isExecutableFile(atPath: jamPackage + "/.build/debug/polyphon-jam") }

    /// Starts `polyphon jam --port 0`, waits for its URL, fetches the page; returns standard
    /// error and the seconds until the URL was printed.
    static func startAndFetch(_ directory: TemporaryDirectory, _ name: String) throws -> (stderr: String, seconds: Double) {
        let out = directory.file(name + ".out"), err = directory.file(name + ".err")
        let started = Date()
        let jam = try Subprocess(CLI.binary, ["jam", "--port", "0", "--soundfont", try CLI.bankFile()], output: out, errors: err)
        defer { jam.stop() }
        var url: String?
        while url == nil && jam.isRunning && Date().timeIntervalSince(started) < 1800 {
            let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            url = text.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init)
            usleep(50_000)
        }
        let seconds = Date().timeIntervalSince(started)
        let stderr = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        let page = try #require(url, "no URL from polyphon jam; stderr: \(stderr)")
        let fetched = try runProcess(RealFiles.python, ["-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())", page])
        #expect(fetched.status == 0 && fetched.stdout.contains("<html"), "\(fetched.stderr)")
        return (stderr, seconds)
    }

    @Test(.enabled(if: RealFiles.isCI || serverBuilt), .timeLimit(.minutes(40)))
    func buildsTheServerWhenASourceChangedAndStartsAtOnceOtherwise() throws {
        let directory = try TemporaryDirectory(prefix: "jam-command")
        // The last build older than the sources (or none): the server is built, SwiftPM's
        // progress shown.
        let stamp = Self.jamPackage + "/.build/polyphon-jam-debug.stamp"
        let builtBefore = FileManager.default.fileExists(atPath: stamp)
        if builtBefore {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 0)], ofItemAtPath: stamp)
        }
        let first = try Self.startAndFetch(directory, "first")
        // Never built through `polyphon jam` (a fresh checkout, or CI): it says so and how long
        // a first build takes; built before: why it builds again.
        #expect(first.stderr.contains(builtBefore ? "a source changed since the jam server was built"
                                                  : "building the jam server, first use (about 15 minutes"), "\(first.stderr)")
        #expect(first.stderr.contains("swift build -c debug --product polyphon-jam"), "\(first.stderr)")
        #expect(first.stderr.contains("polyphon: jam server built in"), "\(first.stderr)")
        // Nothing changed since: no build, no SwiftPM.
        let second = try Self.startAndFetch(directory, "second")
        #expect(!second.stderr.contains("jam server"), "\(second.stderr)")
        print("polyphon jam: URL after \(first.seconds) s with the build stale, \(second.seconds) s with nothing changed")
    }
}
