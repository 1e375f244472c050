import Foundation
import Testing

/// `polyphon export-web`: the WebAssembly kit, built from the checkout's sources.
@Suite struct ExportWebTests {
    @Test(.enabled(if: RealFiles.isCI || RealFiles.toolAvailable("node")))
    func writesAKitWhoseModuleLoads() throws {
        let dir = CLI.workDirectory + "/web-\(UUID().uuidString)"
        let r = try CLI.run(["export-web", "-o", dir])
        #expect(r.status == 0, "\(r.stderr)")
        for name in ["polyphon.wasm", "polyphon.js", "polyphon-worklet.js", "polyphon-midi-player.js", "index.html"] {
            #expect(FileManager.default.fileExists(atPath: dir + "/" + name), "\(name)")
        }
        let size = try FileManager.default.attributesOfItem(atPath: dir + "/polyphon.wasm")[.size] as? Int ?? 0
        #expect(size > 100_000 && size <= 1_000_000, "module of \(size) bytes")
        // The module instantiates through the wrapper and renders a silent block without a note.
        let script = """
            import fs from "node:fs";
            import { PolyphonSynth } from "\(dir)/polyphon.js";
            const synth = await PolyphonSynth.create({ module: fs.readFileSync("\(dir)/polyphon.wasm"), sampleRate: 48000 });
            let threw = false;
            try { synth.loadSoundFont(new Uint8Array([1, 2, 3])); } catch { threw = true; }
            console.log(threw ? "rejects junk" : "accepted junk");
            """
        let scriptPath = dir + "/check.mjs"
        try Data(script.utf8).write(to: URL(fileURLWithPath: scriptPath))
        let node = try runProcess("/usr/bin/env", ["node", scriptPath])
        #expect(node.status == 0, "\(node.stderr)")
        #expect(node.stdout.contains("rejects junk"))
    }
}
