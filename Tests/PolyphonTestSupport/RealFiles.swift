import Foundation

/// Third-party files and tools that some tests measure against: Debian packages that `.ci/run`
/// installs. Tests that need them skip on a developer's machine where they are absent and run
/// (failing loudly if they are missing) under CI, where `CI=true`.
public enum RealFiles {
    public static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// Whether a test needing `path` should run: always under CI, else when the file exists.
    public static func available(_ path: String) -> Bool { isCI || FileManager.default.fileExists(atPath: path) }

    /// The full path of an installed program, if any.
    public static func tool(_ name: String) -> String? {
        for dir in ["/usr/bin", "/usr/local/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
            return "\(dir)/\(name)"
        }
        return nil
    }

    /// Whether a test needing the program `name` should run: always under CI, else when installed.
    public static func toolAvailable(_ name: String) -> Bool { isCI || tool(name) != nil }

    // Banks (fluid-soundfont-gm, timgm6mb-soundfont, musescore-general-soundfont-small).
    public static let fluidR3 = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
    public static let timGM6mb = "/usr/share/sounds/sf2/TimGM6mb.sf2"
    public static let museScore = "/usr/share/sounds/sf3/MuseScore_General.sf3"
    /// Not among the files CI is promised (package fluidr3mono-gm-soundfont): tested when present.
    public static let fluidR3Mono = "/usr/share/sounds/sf3/FluidR3Mono_GM.sf3"
    /// The planetblupi songs (planetblupi-music-midi): music000.mid … music009.mid.
    public static let planetblupiMusic = "/usr/share/planetblupi/music"
    public static func planetblupiSong(_ index: Int) -> String {
        planetblupiMusic + "/music" + String(repeating: "0", count: max(0, 3 - String(index).count)) + "\(index).mid"
    }

    // Programs.
    public static let fluidsynth = "/usr/bin/fluidsynth"
    public static let sox = "/usr/bin/sox"
    public static let python = "/usr/bin/python3"
}
