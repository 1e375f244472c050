import Foundation
import PolyphonAudio
import PolyphonBuiltInBank
import PolyphonSFZ
import PolyphonSoundFont
import PolyphonSynth

/// The banks the jam page may play, each known by a short id (never by its path): those named
/// on the command line, the ones discovered on the system, and the built-in bank. A bank is
/// opened the first time it is asked for (memory-mapped; an SF3's samples are decoded one preset
/// at a time), and the per-preset SF2 subsets the page is sent are kept for the next asker.
actor BankCatalog {
    struct Entry: Sendable, Codable, Equatable {
        /// What the page names the bank by: a slug of its file name, or `builtin`.
        var id: String
        /// For people: the file's name, or "Built-in General MIDI".
        var name: String
        /// Where it was found: "command line", "system", "built-in" …
        var origin: String
        /// Changes whenever the bank's file does, so preset URLs carrying it can be cached for ever.
        var version: String
        /// The file, or nil for the built-in bank and a stack.
        var path: String?
        /// An SFZ instrument given as `X.sfz@B:P`: the bank and program it plays on alone.
        var placement: SoundBankPath.Preset? = nil
        /// A stack: the `--soundfont` values it is made of, first bank first; nil otherwise.
        var stack: [String]? = nil

        /// What the page is told: never where the files are.
        var listed: Entry {
            var entry = self
            entry.path = nil
            entry.placement = nil
            entry.stack = nil
            return entry
        }
    }

    /// A preset as the page lists it.
    struct PresetInfo: Sendable, Codable, Equatable {
        var bank: Int
        var program: Int
        var name: String
    }

    /// A bank that cannot be opened, or a preset it does not have.
    struct Failure: Error, CustomStringConvertible {
        var notFound: Bool
        var description: String
    }

    let entries: [Entry]
    private var opened: [String: SoundFont] = [:]
    private var subsets: [String: Data] = [:]
    private var subsetOrder: [String] = []
    private var subsetBytes = 0
    /// Subsets kept in memory at most (bytes); the least recently made go first.
    private let subsetCacheLimit: Int

    init(entries: [Entry], subsetCacheLimit: Int = 512 << 20) {
        self.entries = entries
        self.subsetCacheLimit = subsetCacheLimit
    }

    /// The banks named in `paths`, then those the documented search finds (environment, user and
    /// system folders), then the built-in bank; the same file once. An SFZ instrument is a bank of
    /// one preset (0:0, or the 128:0 kit), as on the command line, or of the one `X.sfz@B:P`
    /// names. When one of several `paths` places an SFZ instrument so, the banks of `paths` are
    /// offered first stacked, as `polyphon render` plays them (each program from the first bank
    /// that has it: `Piano.sfz@0:0` over a General MIDI bank), then one by one.
    static func discover(paths: [String], locator: SoundBankLocator = SoundBankLocator()) throws -> [Entry] {
        let named = paths.map(SoundBankPath.init)
        var found: [(path: String, origin: String, placement: SoundBankPath.Preset?)] =
            named.filter { $0.path != "builtin" && $0.path != "built-in" }.map { ($0.path, "command line", $0.preset) }
        for location in (try? locator.candidates()) ?? [] {
            if case .file(let path, let origin) = location { found.append((path, origin.description, nil)) }
        }
        var entries: [Entry] = []
        if named.count > 1, named.contains(where: { $0.preset != nil }) {
            entries.append(try stackEntry(named))
        }
        var seen = Set<String>()
        for (path, origin, placement) in found {
            let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            guard seen.insert(resolved + (placement.map { "@\($0.bank):\($0.program)" } ?? "")).inserted else { continue }
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved) else {
                if origin == "command line" { throw Failure(notFound: true, description: "\(path): no such bank") }
                continue
            }
            let size = (attributes[.size] as? Int) ?? 0
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            // Named after the file itself: the system's default-GM.sf2 is a link to a real bank.
            let file = URL(fileURLWithPath: resolved)
            let name = file.lastPathComponent + (placement.map { "@\($0.bank):\($0.program)" } ?? "")
            entries.append(Entry(id: uniqueID(slug(file.deletingPathExtension().lastPathComponent), entries),
                                 name: name, origin: origin,
                                 version: String(size, radix: 36) + "-" + String(Int(modified), radix: 36), path: path,
                                 placement: placement))
        }
        entries.append(Entry(id: "builtin", name: "Built-in General MIDI", origin: "built-in",
                             version: builtInVersion, path: nil))
        return entries
    }

    /// The stack of the banks named on the command line, known as `stack`; its version changes
    /// whenever one of its files does.
    static func stackEntry(_ named: [SoundBankPath]) throws -> Entry {
        var versions: [String] = []
        for value in named where value.path != "builtin" && value.path != "built-in" {
            let resolved = URL(fileURLWithPath: value.path).resolvingSymlinksInPath().path
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved) else {
                throw Failure(notFound: true, description: "\(value.path): no such bank")
            }
            let size = (attributes[.size] as? Int) ?? 0
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            versions.append(String(size, radix: 36) + "-" + String(Int(modified), radix: 36))
        }
        if named.contains(where: { $0.path == "builtin" || $0.path == "built-in" }) { versions.append(builtInVersion) }
        return Entry(id: "stack", name: named.map { URL(fileURLWithPath: $0.text).lastPathComponent }.joined(separator: " + "),
                     origin: "command line", version: versions.joined(separator: "."), path: nil,
                     stack: named.map(\.text))
    }

    /// The built-in bank is generated by this program: it changes only when the program does.
    static let builtInVersion: String = {
        let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
        let modified = ((try? FileManager.default.attributesOfItem(atPath: executable))?[.modificationDate] as? Date)?
            .timeIntervalSince1970 ?? 0
        return "b" + String(Int(modified), radix: 36)
    }()

    static func slug(_ name: String) -> String {
        var slug = ""
        for c in name.lowercased().unicodeScalars {
            if CharacterSet.alphanumerics.contains(c) && c.isASCII { slug.unicodeScalars.append(c) }
            else if !slug.hasSuffix("-") && !slug.isEmpty { slug += "-" }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.isEmpty || slug == "builtin" ? "bank" : String(slug.prefix(40))
    }

    static func uniqueID(_ base: String, _ entries: [Entry]) -> String {
        var id = base, n = 2
        while entries.contains(where: { $0.id == id }) { id = "\(base)-\(n)"; n += 1 }
        return id
    }

    func entry(_ id: String) throws(Failure) -> Entry {
        guard let entry = entries.first(where: { $0.id == id }) else {
            throw Failure(notFound: true, description: "no bank '\(id.prefix(64))'")
        }
        return entry
    }

    /// The bank with this id, opened on first use.
    func bank(_ id: String) throws(Failure) -> SoundFont {
        let entry = try entry(id)
        if let bank = opened[id] { return bank }
        let bank: SoundFont
        if let stack = entry.stack {
            // Each bank where it is: a mapped SoundFont stays mapped (SoundFont(stacking:)).
            var banks: [SoundFont] = []
            for value in stack.map(SoundBankPath.init) {
                banks.append(try Self.open(value.path, placement: value.preset, inStack: true, name: value.text))
            }
            do { bank = try SoundFont(stacking: banks) } catch {
                throw Failure(notFound: false, description: "\(entry.name): \(error)")
            }
        } else if let path = entry.path {
            bank = try Self.open(path, placement: entry.placement, inStack: false, name: entry.name)
        } else {
            bank = SoundFont.builtInGeneralMIDI
        }
        opened[id] = bank
        return bank
    }

    /// One bank file — or `builtin` — as the command line's `--soundfont` opens it: an SFZ
    /// instrument on the bank and program `placement` names, else on its own place (in a stack
    /// 0:0, or 128:0 for a kit); anything else as it is, where `placement` is an error.
    private static func open(_ path: String, placement: SoundBankPath.Preset?, inStack: Bool,
                             name: String) throws(Failure) -> SoundFont {
        do {
            if path == "builtin" || path == "built-in", placement == nil { return SoundFont.builtInGeneralMIDI }
            if try SoundBankKind.sniff(path: path) == .sfz {
                let instrument = try SFZInstrument(contentsOf: path)
                _ = try? instrument.preloadSamples()   // a missing sample skips its regions
                var slot = SFZPlacement.automatic
                if let placement { slot = .preset(bank: placement.bank, program: placement.program) }
                else if inStack { slot = instrument.looksLikeDrumKit ? .drumKit : .preset(bank: 0, program: 0) }
                return SFZSoundBank(instrument, placement: slot, releasingDecodedSamples: true).soundFont
            }
            guard placement == nil else {
                throw Failure(notFound: false, description: "\(name): only an SFZ instrument takes @bank:program")
            }
            return try SoundFont(contentsOfAnyBank: path, audioLoader: { path in
                let file = try AudioFile(contentsOf: path)
                return SampleBankAudio(sampleRate: file.sampleRate, channels: file.channels)
            })
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(notFound: false, description: "\(name): \(error)")
        }
    }

    /// The bank's presets, by bank then program.
    func presets(_ id: String) throws(Failure) -> [PresetInfo] {
        try bank(id).presets.map { PresetInfo(bank: Int($0.bank), program: Int($0.program), name: $0.name) }
            .sorted { ($0.bank, $0.program) < ($1.bank, $1.program) }
    }

    /// One preset as a small SF2 bank of its own (``SoundFont/subset(presetIndexes:)``); an SFZ
    /// instrument's play conditions and voice shaping travel with it (``SoundFont/serialized()``'s
    /// `zext` list), so the page's engine plays its release samples, round robin, keyswitches,
    /// filters, envelopes and LFOs.
    func subset(_ id: String, bank number: Int, program: Int) throws(Failure) -> Data {
        let key = "\(id)/\(number)/\(program)"
        if let cached = subsets[key] {
            subsetOrder.removeAll { $0 == key }
            subsetOrder.append(key)
            return cached
        }
        let bank = try bank(id)
        guard let index = bank.presetIndex(bank: number, program: program) else {
            throw Failure(notFound: true, description: "\(try entry(id).name) has no preset \(number):\(program)")
        }
        let data: Data
        do {
            data = Data(try bank.subset(presetIndexes: [index]).serialized())
        } catch {
            throw Failure(notFound: false, description: "preset \(number):\(program): \(error)")
        }
        subsets[key] = data
        subsetOrder.append(key)
        subsetBytes += data.count
        while subsetBytes > subsetCacheLimit, subsetOrder.count > 1 {
            let old = subsetOrder.removeFirst()
            subsetBytes -= subsets.removeValue(forKey: old)?.count ?? 0
        }
        return data
    }
}
