// swift-tools-version: 6.0
import PackageDescription

// An app that uses Polyphon as a dependency: it builds the seed's song in code and bounces it
// to a WAV file through a SoundFont. It depends on this checkout by path; an app of your own
// would write `.package(url: <Polyphon's repository>, from: "0.1.0")` instead.
let package = Package(
    name: "BounceApp",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        .package(name: "Polyphon", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "BounceApp",
            dependencies: [
                .product(name: "PolyphonMIDI", package: "Polyphon"),
                .product(name: "PolyphonSoundFont", package: "Polyphon"),
                .product(name: "PolyphonBuiltInBank", package: "Polyphon"),
                .product(name: "PolyphonSynth", package: "Polyphon"),
                .product(name: "PolyphonAudio", package: "Polyphon"),
                .product(name: "PolyphonPlayback", package: "Polyphon"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
