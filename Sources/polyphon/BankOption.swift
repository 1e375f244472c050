import ArgumentParser
import Foundation
import PolyphonSoundFont

/// `--soundfont` and the search for a bank when it is not given.
struct BankOption: ParsableArguments {
    @Option(name: [.customLong("soundfont"), .customShort("s")],
            help: "SoundFont (.sf2/.sf3) to play. Default: $POLYPHON_SOUNDFONT, $SOUNDFONT, then the system's GM bank.")
    var soundfont: String?

    /// Candidates in the documented order: flag, POLYPHON_SOUNDFONT, SOUNDFONT, user dirs, system.
    func candidates(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var list: [String] = []
        if let soundfont { return [soundfont] }
        if let p = environment["POLYPHON_SOUNDFONT"], !p.isEmpty { list.append(p) }
        if let p = environment["SOUNDFONT"], !p.isEmpty { list.append(p) }
        let home = environment["HOME"] ?? NSHomeDirectory()
        for dir in ["\(home)/.local/share/soundfonts", "\(home)/.soundfonts"] {
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
            list += files.filter { $0.lowercased().hasSuffix(".sf2") || $0.lowercased().hasSuffix(".sf3") }
                .map { "\(dir)/\($0)" }
        }
        list += ["/usr/share/sounds/sf2/default-GM.sf2", "/usr/share/soundfonts/default.sf2",
                 "/usr/share/sounds/sf3/default-GM.sf3"]
        for dir in ["/usr/share/soundfonts", "/usr/share/sounds/sf2"] {
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
            list += files.filter { !$0.hasPrefix(".") }.map { "\(dir)/\($0)" }
        }
        return list
    }

    /// Loads the first bank found and says which (one line on stderr).
    func load(quiet: Bool = false) throws -> (bank: SoundFont, path: String) {
        if let soundfont {
            let bank = try SoundFont(contentsOf: soundfont)
            if !quiet { note("polyphon: using bank \(soundfont)") }
            return (bank, soundfont)
        }
        for path in candidates() where FileManager.default.fileExists(atPath: path) {
            if let bank = try? SoundFont(contentsOf: path) {
                if !quiet { note("polyphon: using bank \(path)") }
                return (bank, path)
            }
        }
        throw CLIError("no SoundFont found: pass --soundfont FILE or set POLYPHON_SOUNDFONT "
            + "(Debian/Ubuntu: apt install fluid-soundfont-gm)")
    }
}
