import ArgumentParser
import Foundation
import PolyphonWebKit

/// `polyphon export-web -o DIR`: the kit for putting Polyphon on any web page — the
/// WebAssembly module, its JavaScript wrapper, the AudioWorklet processor and a minimal page.
struct ExportWebCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-web",
        abstract: "Write the WebAssembly kit (polyphon.wasm, polyphon.js, polyphon-worklet.js, example page).",
        discussion: """
            The module is built from this checkout's sources with Scripts/build-wasm.sh the first \
            time (and again whenever the engine's sources are newer than it), into .build-wasm. \
            Serve DIR over HTTP (browsers do not run worklets from file:// pages) and open \
            index.html.
            """)

    @Option(name: [.short, .customLong("output")], help: "Directory to write the kit into.")
    var output: String

    func run() throws {
        let kit = WebAssemblyKit.thisCheckout
        let module: String
        do { module = try kit.prepareModule(log: note) } catch { throw CLIError(error.description) }
        let fm = FileManager.default
        do {
            try fm.createDirectory(atPath: output, withIntermediateDirectories: true)
            for (source, name) in [(module, "polyphon.wasm"), (kit.wrapperPath, "polyphon.js"),
                                   (kit.workletPath, "polyphon-worklet.js"),
                                   (kit.midiPlayerPath, "polyphon-midi-player.js"), (kit.examplePagePath, "index.html")] {
                let target = output + "/" + name
                if fm.fileExists(atPath: target) { try fm.removeItem(atPath: target) }
                try fm.copyItem(atPath: source, toPath: target)
            }
        } catch {
            throw CLIError("\(output): cannot write the kit: \(error.localizedDescription)")
        }
        let size = (try? fm.attributesOfItem(atPath: module)[.size] as? Int) ?? 0
        print("Wrote \(output): polyphon.wasm (\(size) bytes), polyphon.js, polyphon-worklet.js, polyphon-midi-player.js, index.html")
    }
}
