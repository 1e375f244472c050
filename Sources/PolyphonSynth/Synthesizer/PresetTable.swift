import PolyphonSoundFontCore

/// The bank's presets as channels choose them: found by bank and program, with their regions
/// (preset zone × instrument zone, generators summed) resolved once, so a note-on only filters
/// them by key and velocity.
struct PresetTable: Sendable {
    /// Every preset's regions, by preset index.
    let regions: [[Region]]
    /// Every preset's play rules, nil for presets whose regions carry no conditions.
    let playRules: [PresetPlayRules?]
    /// The most round-robin counters a preset counts.
    let counterCount: Int
    /// Every preset's controller defaults (SFZ `set_ccN`), by preset index; empty for SF2.
    let controllerDefaults: [[ControllerDefault]]
    /// The first preset with each (bank << 7 | program).
    private let lookup: [Int: Int]

    init(soundBank: SoundFont, velocityToFilter: VelocityToFilterMode) {
        var lookup: [Int: Int] = [:]
        for (i, p) in soundBank.presets.enumerated() {
            let k = Int(p.bank) << 7 | Int(p.program & 0x7F)
            if lookup[k] == nil { lookup[k] = i }
        }
        self.lookup = lookup
        let defaults = velocityToFilter.defaultModulators
        regions = soundBank.presets.indices.map { soundBank.regions(forPresetAt: $0, defaultModulators: defaults) }
        playRules = regions.map { PresetPlayRules($0) }
        counterCount = playRules.reduce(0) { max($0, $1?.counterCount ?? 0) }
        controllerDefaults = soundBank.presets.map { preset in
            preset.controllerDefaults.filter { !ControllerDefault.isMessage($0.controller) }
        }
    }

    /// The preset for a bank and program, if the bank has it.
    func preset(bank: Int, program: Int) -> Int? { lookup[bank << 7 | program] }
}

extension VelocityToFilterMode {
    /// The default modulators regions start from: in FluidSynth mode the velocity → filter
    /// default has amount 0, so only a bank's own amount for it acts.
    var defaultModulators: [Modulator] {
        var defaults = Modulator.defaults
        if self == .fluidSynth, let i = defaults.firstIndex(where: { $0.destination == GeneratorType.initialFilterFc.rawValue }) {
            defaults[i].amount = 0
        }
        return defaults
    }
}
