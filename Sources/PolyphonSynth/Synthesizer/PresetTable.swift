import PolyphonSoundFontCore

/// The bank's presets as channels choose them: found by bank and program, with their regions
/// (preset zone × instrument zone, generators summed) resolved once, so a note-on only filters
/// them by key and velocity.
struct PresetTable {
    /// Every preset's regions, by preset index.
    let regions: [[Region]]
    /// The first preset with each (bank << 7 | program).
    private let lookup: [Int: Int]

    init(soundBank: SoundFont) {
        var lookup: [Int: Int] = [:]
        for (i, p) in soundBank.presets.enumerated() {
            let k = Int(p.bank) << 7 | Int(p.program & 0x7F)
            if lookup[k] == nil { lookup[k] = i }
        }
        self.lookup = lookup
        regions = soundBank.presets.indices.map { soundBank.regions(forPresetAt: $0) }
    }

    /// The preset for a bank and program, if the bank has it.
    func preset(bank: Int, program: Int) -> Int? { lookup[bank << 7 | program] }
}
