import Foundation

/// Builds the jam server (`polyphon-jam`, the package in a checkout's `Jam/` folder) when it is
/// missing or older than a source it is built from, showing SwiftPM's progress on standard
/// error.
///
/// Whether it is up to date is decided without SwiftPM, from modification times: a build
/// leaves a stamp file, and the server is rebuilt when a file of either package's manifest or
/// sources (the CLI's own aside) is newer than the stamp. An up-to-date server thus starts at
/// once instead of after a manifest load and a no-op build.
struct JamServerBuild {
    /// The Polyphon checkout.
    let checkout: String
    /// "debug" or "release".
    let configuration: String

    /// The jam package's folder.
    var package: String { checkout + "/Jam" }
    /// The server SwiftPM builds.
    var executable: String { package + "/.build/\(configuration)/polyphon-jam" }
    /// Written after each successful build: what the sources are compared with.
    var stamp: String { package + "/.build/polyphon-jam-\(configuration).stamp" }

    /// How long a first build takes, said before it starts: measured on a 2-core machine busy
    /// with other builds (release 20 minutes; debug, tests included, 15).
    var firstBuildEstimate: String {
        "about \(configuration == "release" ? 20 : 15) minutes on a busy 2-core machine, less with more cores"
    }

    /// Builds the server if it is missing or stale.
    func bringUpToDate() throws {
        let fm = FileManager.default
        let built = fm.isExecutableFile(atPath: executable)
            ? (try? fm.attributesOfItem(atPath: stamp))?[.modificationDate] as? Date : nil
        if let built, !hasSource(newerThan: built) { return }
        guard let swift = Self.which("swift") else {
            throw CLIError("the jam server is built from \(package) with `swift`, which is not on PATH")
        }
        if built == nil {
            note("polyphon: building the jam server, first use (\(firstBuildEstimate): it compiles Hummingbird and SwiftNIO too); later runs start at once")
        } else {
            note("polyphon: a source changed since the jam server was built; building it again")
        }
        // Without --disable-build-manifest-caching SwiftPM reuses its plan of the last build
        // while no manifest changed, and that plan knows only the source files the root's
        // targets had then: a file a pull adds to them is not compiled ("cannot find … in
        // scope"). Planning again costs seconds; a build is minutes.
        let arguments = ["build", "-c", configuration, "--product", "polyphon-jam", "--package-path", package,
                         "--disable-build-manifest-caching"]
        note("polyphon: swift \(arguments.joined(separator: " "))")
        let started = Date()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: swift)
        process.arguments = arguments
        // SwiftPM's progress (one line updated in place on a terminal) goes to standard error,
        // so that standard output carries only the server's URL line.
        process.standardOutput = FileHandle.standardError
        process.standardError = FileHandle.standardError
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CLIError("building the jam server failed (swift build exit \(process.terminationStatus))")
        }
        guard fm.createFile(atPath: stamp, contents: Data()) else {
            throw CLIError("\(stamp): cannot write the build stamp")
        }
        note(String(format: "polyphon: jam server built in %.0f s", Date().timeIntervalSince(started)))
    }

    /// Whether a manifest or source file the server is built from is newer than `date`.
    func hasSource(newerThan date: Date) -> Bool {
        let fm = FileManager.default
        func newer(_ path: String) -> Bool {
            ((try? fm.attributesOfItem(atPath: path))?[.modificationDate] as? Date).map { $0 > date } ?? false
        }
        if newer(checkout + "/Package.swift") || newer(package + "/Package.swift") || newer(package + "/Package.resolved") {
            return true
        }
        for folder in [checkout + "/Sources", package + "/Sources"] {
            guard let walk = fm.enumerator(atPath: folder) else { continue }
            while let relative = walk.nextObject() as? String {
                // The CLI (this program) is not part of the server.
                if folder == checkout + "/Sources" && (relative == "polyphon" || relative.hasPrefix("polyphon/")) {
                    walk.skipDescendants()
                    continue
                }
                if newer(folder + "/" + relative) { return true }
            }
        }
        return false
    }

    static func which(_ name: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
