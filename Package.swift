// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Polyphon",
    // macOS 14 / iOS 17: Hummingbird's (the jam server's) minimum; SwiftPM applies the package's
    // platforms to every target.
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "PolyphonMIDICore", targets: ["PolyphonMIDICore"]),
        .library(name: "PolyphonMIDI", targets: ["PolyphonMIDI"]),
        .library(name: "PolyphonSoundFontCore", targets: ["PolyphonSoundFontCore"]),
        .library(name: "PolyphonSoundFont", targets: ["PolyphonSoundFont"]),
        .library(name: "PolyphonSynth", targets: ["PolyphonSynth"]),
        .library(name: "PolyphonBuiltInBank", targets: ["PolyphonBuiltInBank"]),
        .library(name: "PolyphonAudio", targets: ["PolyphonAudio"]),
        .library(name: "PolyphonLive", targets: ["PolyphonLive"]),
        .library(name: "PolyphonPlayback", targets: ["PolyphonPlayback"]),
        .executable(name: "polyphon", targets: ["polyphon"]),
        // The jam server: `polyphon jam` builds and starts it, so `render` and `demo` never
        // compile the web server stack.
        .executable(name: "polyphon-jam", targets: ["PolyphonJam"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.2.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
    ],
    targets: [
        // The portable core (no Foundation; also builds as Embedded Swift for WebAssembly):
        // bytes ↔ MIDI: messages, Standard MIDI Files, tempo map, songs, raw byte streams.
        .target(name: "PolyphonMIDICore"),
        // bytes → bank model: RIFF, SF2/SF3 structure, region resolution, writing.
        .target(name: "PolyphonSoundFontCore"),
        // Elementary functions in IEEE arithmetic only: the same bits on every platform (the
        // built-in bank's samples) and a libm where there is none (the engine on WebAssembly).
        .target(name: "PolyphonMath"),
        // The engine: Synthesizer, Channel, VoicePool, Voice, oscillator, filter, effects.
        .target(name: "PolyphonSynth", dependencies: ["PolyphonSoundFontCore", "PolyphonMIDICore", "PolyphonMath"]),
        // Native layers on top: files (and re-exports of the cores).
        .target(name: "PolyphonMIDI", dependencies: ["PolyphonMIDICore"]),
        // Memory-mapped banks, SF3 decoding (libvorbisfile at run time), DLS, plist sample banks,
        // bank discovery.
        .target(name: "PolyphonSoundFont", dependencies: ["PolyphonSoundFontCore"]),
        // The General MIDI bank generated in code: a sound-design program, not a file format.
        .target(name: "PolyphonBuiltInBank", dependencies: ["PolyphonSoundFont", "PolyphonMath"]),
        // The lock-free single-producer single-consumer ring that carries everything crossing a
        // real-time thread: the player's commands and callbacks, live audio frames, live MIDI.
        // Below both native layers that need it (PolyphonPlayback, PolyphonLive), so the module
        // graph stays one-way; not in the portable core, which has no atomics.
        .target(name: "PolyphonLockFree", dependencies: [.product(name: "Atomics", package: "swift-atomics")]),
        // Sinks: audio file writers/readers, run-time loaded codecs.
        .target(name: "PolyphonAudio", dependencies: [.product(name: "Atomics", package: "swift-atomics")]),
        // Live: audio devices (PulseAudio, ALSA, Core Audio) and MIDI input, loaded at run time,
        // and the synthesizer played live from them.
        .target(name: "PolyphonLive", dependencies: ["PolyphonAudio", "PolyphonMIDI", "PolyphonSoundFont", "PolyphonSynth",
                                                     "PolyphonLockFree",
                                                     .product(name: "Atomics", package: "swift-atomics")]),
        // Time: scheduling MIDI onto frames, the offline renderer.
        .target(name: "PolyphonPlayback",
                dependencies: ["PolyphonMIDI", "PolyphonSoundFont", "PolyphonSynth", "PolyphonAudio", "PolyphonLockFree",
                               .product(name: "Atomics", package: "swift-atomics")]),
        // The WebAssembly kit in this checkout: built from the current sources on first use.
        .target(name: "PolyphonWebKit", path: "Sources/PolyphonWebKit"),
        .executableTarget(
            name: "polyphon",
            dependencies: [
                "PolyphonMIDI", "PolyphonSoundFont", "PolyphonBuiltInBank", "PolyphonSynth", "PolyphonAudio",
                "PolyphonLive", "PolyphonPlayback", "PolyphonWebKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Atomics", package: "swift-atomics"),
            ]),
        // `polyphon jam`'s server (Hummingbird 2): banks, per-preset subsets, the page, exports.
        .executableTarget(
            name: "PolyphonJam",
            dependencies: [
                "PolyphonMIDI", "PolyphonSoundFont", "PolyphonBuiltInBank", "PolyphonSynth", "PolyphonAudio",
                "PolyphonPlayback", "PolyphonWebKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            resources: [.copy("Page")]),
        .executableTarget(
            name: "PolyphonBenchmark",
            dependencies: ["PolyphonMIDI", "PolyphonSoundFont", "PolyphonSynth", "PolyphonAudio", "PolyphonPlayback"],
            path: "Benchmarks/PolyphonBenchmark"),
        .executableTarget(
            name: "RenderHashes",
            dependencies: ["PolyphonMIDI", "PolyphonSoundFont", "PolyphonSynth", "PolyphonPlayback"],
            path: "Benchmarks/RenderHashes"),
        // Helpers every test target shares: real files and tools, processes, temporary files.
        .target(name: "PolyphonTestSupport", dependencies: ["PolyphonSynth", "PolyphonSoundFont"], path: "Tests/PolyphonTestSupport"),
        // Fuzz targets for every parser (Scripts/fuzz.sh builds them with libFuzzer and
        // AddressSanitizer); an ordinary build makes the tool that writes their seed corpora
        // and replays inputs.
        .executableTarget(
            name: "PolyphonFuzz",
            dependencies: ["PolyphonMIDI", "PolyphonSoundFont", "PolyphonSynth", "PolyphonAudio", "PolyphonPlayback",
                           "PolyphonTestSupport"],
            path: "Fuzzing/PolyphonFuzz"),
        .testTarget(name: "PolyphonMIDITests", dependencies: ["PolyphonMIDI", "PolyphonMIDICore", "PolyphonTestSupport"]),
        .testTarget(name: "PolyphonSoundFontTests", dependencies: ["PolyphonSoundFont", "PolyphonSoundFontCore", "PolyphonTestSupport"]),
        .testTarget(name: "PolyphonSynthTests",
                    dependencies: ["PolyphonSynth", "PolyphonSoundFont", "PolyphonSoundFontCore", "PolyphonMIDI", "PolyphonMIDICore",
                                   "PolyphonAudio", "PolyphonTestSupport"]),
        .testTarget(name: "PolyphonBuiltInBankTests",
                    dependencies: ["PolyphonBuiltInBank", "PolyphonMath", "PolyphonSynth", "PolyphonSoundFont", "PolyphonSoundFontCore",
                                   "PolyphonMIDI", "PolyphonAudio",
                                   "PolyphonTestSupport"]),
        .testTarget(name: "PolyphonAudioTests", dependencies: ["PolyphonAudio", "PolyphonTestSupport"]),
        .testTarget(name: "PolyphonLiveTests", dependencies: ["PolyphonLive", "PolyphonLockFree", "PolyphonMIDI", "PolyphonSoundFont",
                                                             "PolyphonSynth", "PolyphonTestSupport"]),
        .testTarget(name: "PolyphonPlaybackTests",
                    dependencies: ["PolyphonPlayback", "PolyphonSynth", "PolyphonSoundFont", "PolyphonMIDI", "PolyphonAudio",
                                   "PolyphonTestSupport"]),
        .testTarget(name: "PolyphonJamTests",
                    dependencies: ["PolyphonJam", "PolyphonMIDI", "PolyphonSoundFont", "PolyphonSynth", "PolyphonAudio",
                                   "PolyphonPlayback", "PolyphonTestSupport", "PolyphonWebKit",
                                   .product(name: "HummingbirdTesting", package: "hummingbird")],
                    exclude: ["jam-in-chromium.py"]),
        // End-to-end: the built `polyphon` executable, including live playback through a private sound server.
        .testTarget(name: "PolyphonCLITests",
                    dependencies: ["polyphon", "PolyphonMIDI", "PolyphonSoundFont", "PolyphonAudio", "PolyphonLive",
                                   "PolyphonTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
