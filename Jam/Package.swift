// swift-tools-version: 6.0
import PackageDescription

// `polyphon jam`'s server, a package of its own so that the web stack (Hummingbird, SwiftNIO
// and what they depend on) stays out of the graph of every app that uses Polyphon's libraries.
// `polyphon jam` builds it on first use; `swift test` here runs its tests.

/// Library products of the root package.
func polyphon(_ products: String...) -> [Target.Dependency] {
    products.map { .product(name: $0, package: "Polyphon") }
}

let package = Package(
    name: "PolyphonJam",
    // macOS 14 / iOS 17: Hummingbird 2's minimum.
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "polyphon-jam", targets: ["PolyphonJam"]),
    ],
    dependencies: [
        // The libraries of the checkout this folder is in. Named, so that products can be
        // referred to whatever the checkout's folder is called.
        .package(name: "Polyphon", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
    ],
    targets: [
        // The server (Hummingbird 2): banks, per-preset subsets, the page, exports.
        .executableTarget(
            name: "PolyphonJam",
            dependencies: polyphon("PolyphonMIDI", "PolyphonSoundFont", "PolyphonSFZ", "PolyphonBuiltInBank", "PolyphonSynth",
                                   "PolyphonAudio", "PolyphonPlayback", "PolyphonWebKit") + [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            resources: [.copy("Page")]),
        // The root package's test helpers (Tests/PolyphonTestSupport, linked here): a package
        // can use only another package's products, and test helpers are not a product.
        .target(
            name: "PolyphonTestSupport",
            dependencies: polyphon("PolyphonSynth", "PolyphonSoundFont", "PolyphonMIDI", "PolyphonAudio"),
            path: "Tests/PolyphonTestSupport"),
        .testTarget(
            name: "PolyphonJamTests",
            dependencies: ["PolyphonJam", "PolyphonTestSupport", .product(name: "HummingbirdTesting", package: "hummingbird")]
                + polyphon("PolyphonMIDI", "PolyphonSoundFont", "PolyphonSynth", "PolyphonAudio", "PolyphonPlayback",
                           "PolyphonWebKit"),
            exclude: ["jam-in-chromium.py", "jam-file-in-chromium.py", "jam-sfz-in-chromium.py", "jam_page.py"]),
    ],
    swiftLanguageModes: [.v6]
)
