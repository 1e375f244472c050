// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Polyphon",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "PolyphonMIDI", targets: ["PolyphonMIDI"]),
        .library(name: "PolyphonSoundFont", targets: ["PolyphonSoundFont"]),
        .library(name: "PolyphonSynth", targets: ["PolyphonSynth"]),
        .library(name: "PolyphonAudio", targets: ["PolyphonAudio"]),
        .library(name: "PolyphonPlayback", targets: ["PolyphonPlayback"]),
        .executable(name: "polyphon", targets: ["polyphon"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.2.0"),
    ],
    targets: [
        // bytes ↔ MIDI: messages, Standard MIDI File read/write, tempo map.
        .target(name: "PolyphonMIDI"),
        // bytes → bank model: RIFF, SF2/SF3, region resolution.
        .target(name: "PolyphonSoundFont"),
        // The engine: Synthesizer, Channel, Voice, DSP parts.
        .target(name: "PolyphonSynth", dependencies: ["PolyphonSoundFont", "PolyphonMIDI"]),
        // Sinks: audio file writers/readers, run-time loaded codecs.
        .target(name: "PolyphonAudio", dependencies: [.product(name: "Atomics", package: "swift-atomics")]),
        // Time: scheduling MIDI onto frames, the offline renderer.
        .target(name: "PolyphonPlayback",
                dependencies: ["PolyphonMIDI", "PolyphonSoundFont", "PolyphonSynth", "PolyphonAudio",
                               .product(name: "Atomics", package: "swift-atomics")]),
        .executableTarget(
            name: "polyphon",
            dependencies: [
                "PolyphonMIDI", "PolyphonSoundFont", "PolyphonSynth", "PolyphonAudio", "PolyphonPlayback",
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
        .testTarget(name: "PolyphonMIDITests", dependencies: ["PolyphonMIDI"]),
        .testTarget(name: "PolyphonSoundFontTests", dependencies: ["PolyphonSoundFont"]),
        .testTarget(name: "PolyphonSynthTests", dependencies: ["PolyphonSynth", "PolyphonSoundFont", "PolyphonMIDI", "PolyphonAudio"]),
        .testTarget(name: "PolyphonAudioTests", dependencies: ["PolyphonAudio"]),
        .testTarget(name: "PolyphonPlaybackTests",
                    dependencies: ["PolyphonPlayback", "PolyphonSynth", "PolyphonSoundFont", "PolyphonMIDI", "PolyphonAudio"]),
        .testTarget(name: "PolyphonCLITests",
                    dependencies: ["polyphon", "PolyphonMIDI", "PolyphonSoundFont", "PolyphonAudio"]),
    ],
    swiftLanguageModes: [.v6]
)
