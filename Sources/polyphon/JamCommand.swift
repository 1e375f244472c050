import ArgumentParser
import Foundation
import PolyphonWebKit

/// `polyphon jam`: starts the jam server, `polyphon-jam`, with the arguments given.
///
/// The server is the package in `Jam/` of the checkout this program was built from: a package
/// of its own, so that the libraries (and every app using them) never depend on the web server
/// stack. It is built on first use, in this program's configuration, with SwiftPM's progress
/// shown; later runs start it at once, and build again only when a source it is built from has
/// changed since (``JamServerBuild``).
struct JamCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jam",
        abstract: "Play Polyphon in a browser: keyboard, 128 General MIDI instruments, record, layer, export.",
        discussion: """
            polyphon jam [--soundfont F …] [--midi DIR] [--host 127.0.0.1] [--port 8080] [--open]

            Serves the jam page on 127.0.0.1:8080 (another --host lets anyone on that network play \
            and export) and prints its URL. The banks offered are those given with --soundfont, the \
            ones discovered on this system and the built-in bank; --midi DIR lists that folder's MIDI \
            files on the page to play (any file can also be dropped on it). The server is a package of its \
            own (Jam/ in the checkout), built the first time this command runs — several minutes, \
            as it compiles Hummingbird and SwiftNIO — and started at once after that. \
            `polyphon jam --help` after the server is built shows its own options.
            """)

    @Argument(parsing: .captureForPassthrough, help: "Options for the jam server (see above).")
    var arguments: [String] = []

    func run() throws {
        let executable = try Self.serverExecutable()
        let argv = [executable] + arguments
        let cArguments = argv.map { strdup($0) } + [nil]
        execv(executable, cArguments)
        throw CLIError("cannot start \(executable): \(String(cString: strerror(errno)))")
    }

    /// `polyphon-jam` of this program's checkout, built or brought up to date first; for a
    /// program not run from a checkout, the `polyphon-jam` installed beside it.
    static func serverExecutable() throws -> String {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let binDirectory = (FileManager.default.fileExists(atPath: me.path) ? me : URL(fileURLWithPath: CommandLine.arguments[0]))
            .deletingLastPathComponent()
        let build = JamServerBuild(checkout: WebAssemblyKit.thisCheckout.packageRoot,
                                   configuration: binDirectory.lastPathComponent == "release" ? "release" : "debug")
        if FileManager.default.fileExists(atPath: build.package + "/Package.swift") {
            try build.bringUpToDate()
            return build.executable
        }
        let installed = binDirectory.appendingPathComponent("polyphon-jam").path
        guard FileManager.default.isExecutableFile(atPath: installed) else {
            throw CLIError("polyphon-jam is not installed beside \(binDirectory.path), and the checkout this program was built from (\(build.checkout)) is gone: build it there with `swift build -c release --package-path Jam`")
        }
        return installed
    }
}
