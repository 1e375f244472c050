// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Polyphon",
    // macOS 13 / iOS 16: the oldest systems promised. The libraries need Swift concurrency
    // (MIDIPlayer's `await play()`: macOS 10.15 / iOS 13) and, as far as we know, no newer API;
    // going lower would be a promise that no build checks. The jam server needs macOS 14 / iOS 17
    // (Hummingbird 2) and is a package of its own (Jam/) because SwiftPM applies a package's
    // platforms to every one of its targets.
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "PolyphonMIDICore", targets: ["PolyphonMIDICore"]),
        .library(name: "PolyphonMIDI", targets: ["PolyphonMIDI"]),
        .library(name: "PolyphonSoundFontCore", targets: ["PolyphonSoundFontCore"]),
        .library(name: "PolyphonSoundFont", targets: ["PolyphonSoundFont"]),
        .library(name: "PolyphonSFZCore", targets: ["PolyphonSFZCore"]),
        .library(name: "PolyphonSFZ", targets: ["PolyphonSFZ"]),
        .library(name: "PolyphonSynth", targets: ["PolyphonSynth"]),
        .library(name: "PolyphonBuiltInBank", targets: ["PolyphonBuiltInBank"]),
        .library(name: "PolyphonAudio", targets: ["PolyphonAudio"]),
        .library(name: "PolyphonLive", targets: ["PolyphonLive"]),
        .library(name: "PolyphonPlayback", targets: ["PolyphonPlayback"]),
        .library(name: "PolyphonBatch", targets: ["PolyphonBatch"]),
        // Finds and builds the WebAssembly kit of a checkout: `export-web` here, the jam server
        // in Jam/.
        .library(name: "PolyphonWebKit", targets: ["PolyphonWebKit"]),
        .executable(name: "polyphon", targets: ["polyphon"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.2.0"),
    ],
    targets: [
        // The portable core (no Foundation; also builds as Embedded Swift for WebAssembly):
        // bytes ↔ MIDI: messages, Standard MIDI Files, tempo map, songs, raw byte streams.
        .target(name: "PolyphonMIDICore"),
        // bytes → bank model: RIFF, SF2/SF3 structure, region resolution, writing.
        .target(name: "PolyphonSoundFontCore"),
        // SFZ text → instrument model: the reader (#define, #include), opcodes and their aliases,
        // inheritance, regions; files reached through a file-system protocol.
        .target(name: "PolyphonSFZCore"),
        // Elementary functions in IEEE arithmetic only: the same bits on every platform (the
        // built-in bank's samples) and a libm where there is none (the engine on WebAssembly).
        .target(name: "PolyphonMath"),
        // The engine: Synthesizer, Channel, VoicePool, Voice, oscillator, filter, effects; SFZ
        // instruments mapped onto its voice.
        .target(name: "PolyphonSynth", dependencies: ["PolyphonSoundFontCore", "PolyphonSFZCore", "PolyphonMIDICore", "PolyphonMath"]),
        // Native layers on top: files (and re-exports of the cores).
        .target(name: "PolyphonMIDI", dependencies: ["PolyphonMIDICore"]),
        // Memory-mapped banks, SF3 decoding (libvorbisfile at run time), DLS, plist sample banks,
        // bank discovery.
        .target(name: "PolyphonSoundFont", dependencies: ["PolyphonSoundFontCore", "PolyphonDynamicLibrary"]),
        // SFZ instruments from disk: case-insensitive paths, samples decoded lazily through
        // PolyphonAudio's readers and shared by every synthesizer.
        .target(name: "PolyphonSFZ", dependencies: ["PolyphonSFZCore", "PolyphonSoundFont", "PolyphonAudio"]),
        // The General MIDI bank generated in code: a sound-design program, not a file format.
        .target(name: "PolyphonBuiltInBank", dependencies: ["PolyphonSoundFont", "PolyphonMath"]),
        // The lock-free single-producer single-consumer ring that carries everything crossing a
        // real-time thread: the player's commands and callbacks, live audio frames, live MIDI.
        // Below both native layers that need it (PolyphonPlayback, PolyphonLive), so the module
        // graph stays one-way; not in the portable core, which has no atomics.
        .target(name: "PolyphonLockFree", dependencies: [.product(name: "Atomics", package: "swift-atomics")]),
        // C libraries opened at run time (libsndfile, libvorbisfile, libasound, libpulse-simple), so
        // that building needs none of their -dev packages.
        .target(name: "PolyphonDynamicLibrary"),
        // Sinks: audio file writers/readers, run-time loaded codecs.
        .target(name: "PolyphonAudio", dependencies: ["PolyphonDynamicLibrary", .product(name: "Atomics", package: "swift-atomics")]),
        // Live: audio devices (PulseAudio, ALSA, Core Audio) and MIDI input, loaded at run time,
        // and the synthesizer played live from them.
        .target(name: "PolyphonLive", dependencies: ["PolyphonAudio", "PolyphonMIDI", "PolyphonSoundFont", "PolyphonSynth",
                                                     "PolyphonLockFree", "PolyphonDynamicLibrary",
                                                     .product(name: "Atomics", package: "swift-atomics")]),
        // Time: scheduling MIDI onto frames, the offline renderer.
        .target(name: "PolyphonPlayback",
                dependencies: ["PolyphonMIDI", "PolyphonSoundFont", "PolyphonSynth", "PolyphonAudio", "PolyphonLockFree",
                               .product(name: "Atomics", package: "swift-atomics")]),
        // A corpus rendered on every core: inputs, costliest-first schedule, resume, report, shards.
        .target(name: "PolyphonBatch",
                dependencies: ["PolyphonMIDI", "PolyphonSoundFont", "PolyphonSynth", "PolyphonAudio", "PolyphonPlayback"]),
        // The WebAssembly kit in this checkout: built from the current sources on first use.
        .target(name: "PolyphonWebKit", path: "Sources/PolyphonWebKit"),
        .executableTarget(
            name: "polyphon",
            dependencies: [
                "PolyphonMIDI", "PolyphonSoundFont", "PolyphonSFZ", "PolyphonBuiltInBank", "PolyphonSynth", "PolyphonAudio",
                "PolyphonLive", "PolyphonPlayback", "PolyphonBatch", "PolyphonWebKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Atomics", package: "swift-atomics"),
            ]),
        .executableTarget(
            name: "PolyphonBenchmark",
            dependencies: ["PolyphonMIDI", "PolyphonSoundFont", "PolyphonSynth", "PolyphonAudio", "PolyphonPlayback"],
            path: "Benchmarks/PolyphonBenchmark"),
        .executableTarget(
            name: "RenderHashes",
            dependencies: ["PolyphonMIDI", "PolyphonSoundFont", "PolyphonSynth", "PolyphonPlayback"],
            path: "Benchmarks/RenderHashes"),
        // Helpers every test target shares: real files and tools, processes, temporary files.
        .target(name: "PolyphonTestSupport", dependencies: ["PolyphonSynth", "PolyphonSoundFont", "PolyphonMIDI", "PolyphonAudio"],
                path: "Tests/PolyphonTestSupport"),
        // Fuzz targets for every parser (Scripts/fuzz.sh builds them with libFuzzer and
        // AddressSanitizer); an ordinary build makes the tool that writes their seed corpora
        // and replays inputs.
        .executableTarget(
            name: "PolyphonFuzz",
            dependencies: ["PolyphonMIDI", "PolyphonSoundFont", "PolyphonSynth", "PolyphonAudio", "PolyphonPlayback",
                           "PolyphonSFZCore", "PolyphonTestSupport"],
            path: "Fuzzing/PolyphonFuzz"),
        .testTarget(name: "PolyphonMIDITests", dependencies: ["PolyphonMIDI", "PolyphonMIDICore", "PolyphonTestSupport"]),
        .testTarget(name: "PolyphonSoundFontTests", dependencies: ["PolyphonSoundFont", "PolyphonSoundFontCore", "PolyphonTestSupport"]),
        .testTarget(name: "PolyphonSynthTests",
                    dependencies: ["PolyphonSynth", "PolyphonSoundFont", "PolyphonSoundFontCore", "PolyphonMIDI", "PolyphonMIDICore",
                                   "PolyphonAudio", "PolyphonWebKit", "PolyphonTestSupport"]),
        .testTarget(name: "PolyphonBuiltInBankTests",
                    dependencies: ["PolyphonBuiltInBank", "PolyphonMath", "PolyphonSynth", "PolyphonSoundFont", "PolyphonSoundFontCore",
                                   "PolyphonMIDI", "PolyphonAudio",
                                   "PolyphonTestSupport"]),
        .testTarget(name: "PolyphonSFZTests",
                    dependencies: ["PolyphonSFZ", "PolyphonSFZCore", "PolyphonSynth", "PolyphonAudio", "PolyphonSoundFont", "PolyphonTestSupport"]),
        .testTarget(name: "PolyphonAudioTests", dependencies: ["PolyphonAudio", "PolyphonTestSupport"]),
        .testTarget(name: "PolyphonLiveTests", dependencies: ["PolyphonLive", "PolyphonLockFree", "PolyphonMIDI", "PolyphonSoundFont",
                                                             "PolyphonSynth", "PolyphonTestSupport"]),
        .testTarget(name: "PolyphonPlaybackTests",
                    dependencies: ["PolyphonPlayback", "PolyphonSynth", "PolyphonSoundFont", "PolyphonMIDI", "PolyphonAudio",
                                   "PolyphonTestSupport"]),
        .testTarget(name: "PolyphonBatchTests",
                    dependencies: ["PolyphonBatch", "PolyphonMIDI", "PolyphonSoundFont", "PolyphonPlayback", "PolyphonAudio",
                                   "PolyphonTestSupport"],
                    // The report page in headless Chromium (BatchReportPageTests).
                    exclude: ["report-in-chromium.py"]),
        // The code the DocC articles and the README show, compiled and run
        // (Scripts/check-doc-snippets.py checks that the text and these files agree).
        .testTarget(name: "DocumentationSnippetTests",
                    dependencies: ["PolyphonMIDI", "PolyphonSoundFont", "PolyphonBuiltInBank", "PolyphonSynth",
                                   "PolyphonAudio", "PolyphonLive", "PolyphonPlayback", "PolyphonBatch", "PolyphonWebKit",
                                   "PolyphonSFZ", "PolyphonTestSupport"]),
        // End-to-end: the built `polyphon` executable, including live playback through a private sound server.
        .testTarget(name: "PolyphonCLITests",
                    dependencies: ["polyphon", "PolyphonMIDI", "PolyphonSoundFont", "PolyphonAudio", "PolyphonLive",
                                   "PolyphonTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
