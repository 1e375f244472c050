// The code of PolyphonWebKit's overview, run on a checkout laid out in a temporary directory.
import Foundation
import Testing
import PolyphonTestSupport
// snippet: webassembly-kit-files
import PolyphonWebKit

/// The files a web page needs to play Polyphon, from the checkout this program was built from:
/// the module (built first if it is missing or older than the engine's sources), its JavaScript
/// wrapper and the AudioWorklet processor.
func webAssemblyKitFiles(of kit: WebAssemblyKit = .thisCheckout) throws -> [String] {
    let module = try kit.prepareModule { line in print(line) }   // says so before it builds
    return [module, kit.wrapperPath, kit.workletPath]
}
// end snippet

@Suite struct WebAssemblyKitSnippets {
    /// A checkout with a build script that fails (so a test sees whether it ran), the kit's
    /// scripts and a module built at `built`.
    static func checkout(in directory: TemporaryDirectory, moduleBuiltAt built: Date) throws -> WebAssemblyKit {
        let fm = FileManager.default
        func write(_ bytes: [UInt8], to file: String, modified: Date, permissions: Int = 0o644) throws {
            let path = directory.file(file)
            try fm.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            try fm.setAttributes([.modificationDate: modified, .posixPermissions: permissions], ofItemAtPath: path)
        }
        let earlier = Date(timeIntervalSinceNow: -60)
        try write(Array("exit 3\n".utf8), to: "Scripts/build-wasm.sh", modified: earlier, permissions: 0o755)
        for file in ["WebAssembly/polyphon.js", "WebAssembly/polyphon-worklet.js", "Sources/PolyphonSynth/Voice.swift"] {
            try write(Array("// source\n".utf8), to: file, modified: earlier)
        }
        try write([0, 0x61, 0x73, 0x6D], to: ".build-wasm/polyphon.wasm", modified: built)
        return WebAssemblyKit(packageRoot: directory.path)
    }

    @Test func aModuleNewerThanItsSourcesIsServedWithoutABuild() throws {
        let directory = try TemporaryDirectory()
        let kit = try Self.checkout(in: directory, moduleBuiltAt: Date())
        #expect(!kit.isStale)
        #expect(try webAssemblyKitFiles(of: kit) == [directory.file(".build-wasm/polyphon.wasm"),
                                                     directory.file("WebAssembly/polyphon.js"),
                                                     directory.file("WebAssembly/polyphon-worklet.js")])
        // A build script newer than the module (its export list changed) makes it stale.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)],
                                              ofItemAtPath: directory.file("Scripts/build-wasm.sh"))
        #expect(kit.isStale)
    }

    @Test func aModuleOlderThanASourceIsBuiltAgainAndAFailedBuildIsNamed() throws {
        let directory = try TemporaryDirectory()
        let kit = try Self.checkout(in: directory, moduleBuiltAt: Date(timeIntervalSinceNow: -3600))
        #expect(kit.isStale)
        let error = #expect(throws: WebAssemblyKit.Failure.self) { try webAssemblyKitFiles(of: kit) }
        #expect(error?.description == "Scripts/build-wasm.sh failed (exit 3)")
    }
}
