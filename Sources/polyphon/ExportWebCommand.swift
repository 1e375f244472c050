import ArgumentParser
import Foundation

/// `polyphon export-web -o DIR`: the kit for putting Polyphon on any web page — the
/// WebAssembly module, its JavaScript wrapper, the AudioWorklet processor and a minimal page.
struct ExportWebCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-web",
        abstract: "Write the WebAssembly kit (polyphon.wasm, polyphon.js, polyphon-worklet.js, example page).",
        discussion: """
            The module is built from this checkout's sources with Scripts/build-wasm.sh the first \\
            time (and again whenever the engine's sources are newer than it), into .build-wasm. \\
            Serve DIR over HTTP (browsers do not run worklets from file:// pages) and open \\
            index.html.
            """)

    @Option(name: [.short, .customLong("output")], help: "Directory to write the kit into.")
    var output: String

    /// The checkout this executable was built from.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    func run() throws {
        let root = Self.packageRoot
        let script = root + "/Scripts/build-wasm.sh"
        guard FileManager.default.isExecutableFile(atPath: script) else {
            throw CLIError("export-web needs the Polyphon source checkout it was built from (\(script) is missing)")
        }
        let module = root + "/.build-wasm/polyphon.wasm"
        if try Self.isStale(module, root: root) {
            note("polyphon: building the WebAssembly module (Scripts/build-wasm.sh)…")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = [script, root + "/.build-wasm"]
            process.standardOutput = FileHandle.standardError
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw CLIError("Scripts/build-wasm.sh failed (exit \(process.terminationStatus))")
            }
        }
        let fm = FileManager.default
        do {
            try fm.createDirectory(atPath: output, withIntermediateDirectories: true)
            for (source, name) in [(module, "polyphon.wasm"), (root + "/WebAssembly/polyphon.js", "polyphon.js"),
                                   (root + "/WebAssembly/polyphon-worklet.js", "polyphon-worklet.js"),
                                   (root + "/WebAssembly/example.html", "index.html")] {
                let target = output + "/" + name
                if fm.fileExists(atPath: target) { try fm.removeItem(atPath: target) }
                try fm.copyItem(atPath: source, toPath: target)
            }
        } catch {
            throw CLIError("\(output): cannot write the kit: \(error.localizedDescription)")
        }
        let size = (try? fm.attributesOfItem(atPath: module)[.size] as? Int) ?? 0
        print("Wrote \(output): polyphon.wasm (\(size) bytes), polyphon.js, polyphon-worklet.js, index.html")
    }

    /// Whether the module is missing or older than any source it is built from.
    static func isStale(_ module: String, root: String) throws -> Bool {
        let fm = FileManager.default
        guard let built = (try? fm.attributesOfItem(atPath: module))?[.modificationDate] as? Date else { return true }
        let folders = ["Sources/PolyphonMIDICore", "Sources/PolyphonSoundFontCore", "Sources/PolyphonSynth", "WebAssembly"]
        for folder in folders {
            guard let files = fm.enumerator(atPath: root + "/" + folder) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") || file.hasSuffix(".c") {
                let date = (try? fm.attributesOfItem(atPath: root + "/" + folder + "/" + file))?[.modificationDate] as? Date
                if let date, date > built { return true }
            }
        }
        return false
    }
}
