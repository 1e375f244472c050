import ArgumentParser
import Foundation
import PolyphonWebKit

/// `polyphon jam`: starts the jam server, `polyphon-jam`, a separate executable so that
/// `render`, `demo` and the rest never compile the web server stack. Built on first use from the
/// checkout this program was built from (`swift build --product polyphon-jam`, with this
/// program's configuration), then run with the arguments given.
struct JamCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jam",
        abstract: "Play Polyphon in a browser: keyboard, 128 General MIDI instruments, record, layer, export.",
        discussion: """
            polyphon jam [--soundfont F …] [--host 127.0.0.1] [--port 8080] [--open]

            Serves the jam page on 127.0.0.1:8080 (another --host lets anyone on that network play \
            and export) and prints its URL. The banks offered are those given with --soundfont, the \
            ones discovered on this system and the built-in bank. `polyphon jam --help` after the \
            server is built shows its own options.
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

    /// `polyphon-jam` beside this program, built or brought up to date first when this program
    /// comes from a source checkout.
    static func serverExecutable() throws -> String {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let binDirectory = (FileManager.default.fileExists(atPath: me.path) ? me : URL(fileURLWithPath: CommandLine.arguments[0]))
            .deletingLastPathComponent()
        let server = binDirectory.appendingPathComponent("polyphon-jam").path
        let root = WebAssemblyKit.thisCheckout.packageRoot
        if FileManager.default.fileExists(atPath: root + "/Package.swift"),
           let swift = Self.which("swift") {
            // <scratch>/<triple>/<configuration>/polyphon: build into the same place.
            let configuration = binDirectory.lastPathComponent == "release" ? "release" : "debug"
            let scratch = binDirectory.deletingLastPathComponent().deletingLastPathComponent().path
            note("polyphon: building polyphon-jam (swift build -c \(configuration) --product polyphon-jam)…")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: swift)
            process.arguments = ["build", "-c", configuration, "--product", "polyphon-jam", "--package-path", root,
                                 "--scratch-path", scratch]
            // The build's chatter is shown only when it fails.
            let log = Pipe()
            process.standardOutput = log
            process.standardError = log
            try process.run()
            let output = log.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                FileHandle.standardError.write(output)
                throw CLIError("building polyphon-jam failed (exit \(process.terminationStatus))")
            }
        }
        guard FileManager.default.isExecutableFile(atPath: server) else {
            throw CLIError("polyphon-jam is not built: run `swift build -c release --product polyphon-jam` in the Polyphon checkout")
        }
        return server
    }

    static func which(_ name: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
