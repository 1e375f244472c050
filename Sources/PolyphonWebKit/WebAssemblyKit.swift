import Foundation

/// Polyphon's WebAssembly kit in the source checkout a program was built from: the module
/// (`polyphon.wasm`, built from the current sources by `Scripts/build-wasm.sh` on first use and
/// again whenever an engine source is newer), its JavaScript wrapper and worklet processor.
///
/// `polyphon export-web` copies the kit; `polyphon jam` serves it.
public struct WebAssemblyKit: Sendable {
    /// Why the kit cannot be had, in one line.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// The line, naming the script or the file concerned.
        public var description: String
    }

    /// The checkout's root directory.
    public var packageRoot: String

    /// The checkout this program was compiled from.
    public static let thisCheckout = WebAssemblyKit(
        packageRoot: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path)

    /// The kit of the checkout at `packageRoot` (a directory holding `Scripts/build-wasm.sh`,
    /// `WebAssembly/` and the engine's `Sources/`).
    public init(packageRoot: String) { self.packageRoot = packageRoot }

    /// The built module.
    public var modulePath: String { packageRoot + "/.build-wasm/polyphon.wasm" }
    /// The JavaScript wrapper (`PolyphonSynth`).
    public var wrapperPath: String { packageRoot + "/WebAssembly/polyphon.js" }
    /// The AudioWorkletProcessor built on the wrapper.
    public var workletPath: String { packageRoot + "/WebAssembly/polyphon-worklet.js" }
    /// The MIDI file player the worklet imports.
    public var midiPlayerPath: String { packageRoot + "/WebAssembly/polyphon-midi-player.js" }
    /// The minimal example page `export-web` writes as `index.html`.
    public var examplePagePath: String { packageRoot + "/WebAssembly/example.html" }

    /// Folders whose sources go into the module.
    static let sourceFolders = ["Sources/PolyphonMIDICore", "Sources/PolyphonSoundFontCore", "Sources/PolyphonSFZCore", "Sources/PolyphonMath",
                                 "Sources/PolyphonSynth", "WebAssembly"]

    /// Builds the module when it is missing or older than a source it is built from, telling
    /// `log` first (the build takes a minute or two). Returns the module's path.
    ///
    /// - Parameter log: called with one line before a build starts; the build's own output goes
    ///   to standard error.
    /// - Throws: ``Failure`` when the checkout has no `Scripts/build-wasm.sh` or the build fails.
    @discardableResult
    public func prepareModule(log: (String) -> Void) throws(Failure) -> String {
        let script = packageRoot + "/Scripts/build-wasm.sh"
        guard FileManager.default.isExecutableFile(atPath: script) else {
            throw Failure(description: "the WebAssembly module is built from the Polyphon source checkout this program was built from, and \(script) is missing")
        }
        guard isStale else { return modulePath }
        log("polyphon: building the WebAssembly module (Scripts/build-wasm.sh)…")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script, packageRoot + "/.build-wasm"]
        process.standardOutput = FileHandle.standardError
        do { try process.run() } catch {
            throw Failure(description: "cannot run Scripts/build-wasm.sh: \(error.localizedDescription)")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "Scripts/build-wasm.sh failed (exit \(process.terminationStatus))")
        }
        return modulePath
    }

    /// Whether the module is missing or older than any source it is built from, or than the
    /// build scripts (build-wasm.sh holds the list of functions the module exports; it compiles
    /// the core through build-embedded-core.sh, which holds the compiler flags).
    public var isStale: Bool {
        let fm = FileManager.default
        guard let built = (try? fm.attributesOfItem(atPath: modulePath))?[.modificationDate] as? Date else { return true }
        for script in ["build-wasm.sh", "build-embedded-core.sh"] {
            let date = (try? fm.attributesOfItem(atPath: packageRoot + "/Scripts/" + script))?[.modificationDate] as? Date
            if let date, date > built { return true }
        }
        for folder in Self.sourceFolders {
            guard let files = fm.enumerator(atPath: packageRoot + "/" + folder) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") || file.hasSuffix(".c") || file.hasSuffix(".h") || file.hasSuffix(".modulemap") {
                let date = (try? fm.attributesOfItem(atPath: packageRoot + "/" + folder + "/" + file))?[.modificationDate] as? Date
                if let date, date > built { return true }
            }
        }
        return false
    }
}
