import PolyphonSoundFontCore

/// One MIDI channel and its semantics: controllers and pedals, RPN/NRPN selection and data
/// entry, bank select and the preset it chooses, pitch wheel and pressure.
///
/// A channel changes only its own state; what that asks of the voices playing on it comes back
/// as a ``VoiceCommand`` for the voice pool to carry out, and voices re-read the channel
/// (controllers, bend, pressure, tuning, NRPN offsets) through their modulators. So every rule
/// here can be tested without rendering.
final class Channel {
    let index: Int
    var isPercussion: Bool
    let startsAsPercussion: Bool

    var bankMSB: UInt8 = 0
    var bankLSB: UInt8 = 0
    var program: UInt8 = 0
    /// Index into the bank's presets, chosen at program change.
    private(set) var presetIndex: Int?

    /// 7-bit controller values (MSB for 14-bit pairs).
    private(set) var controllers = [UInt8](repeating: 0, count: 128)
    /// Controllers the MIDI stream set since the last reset: a preset's default leaves them be.
    private var setByMessage = [Bool](repeating: false, count: 128)
    /// Controllers holding the selected preset's default (``ControllerDefault``), which another
    /// preset's selection withdraws.
    private var holdsDefault = [Bool](repeating: false, count: 128)
    /// The selected preset's controller defaults (SFZ `set_ccN`).
    private var presetDefaults: [ControllerDefault] = []
    private(set) var polyPressure = [UInt8](repeating: 0, count: 128)
    private(set) var channelPressure: UInt8 = 0
    /// 14-bit pitch wheel, 8192 = centre.
    private(set) var pitchWheel: UInt16 = 8192

    /// RPN 0, in semitones (MSB) + cents (LSB).
    private(set) var pitchBendRange: Float = 2
    /// RPN 1 fine tuning in cents (−100…+100), RPN 2 coarse tuning in semitones.
    private(set) var fineTuning: Float = 0
    private(set) var coarseTuning: Float = 0
    /// RPN 5 modulation depth range in cents (GM2).
    private(set) var modulationDepthRange: Float = 50

    /// Selected parameter for data entry: 14-bit number, or nil for "null".
    private(set) var rpn: Int? = nil
    private(set) var nrpn: Int? = nil
    private(set) var nrpnSelected = false
    /// SF2 §9.6 NRPN generator offsets, added to every voice of the channel.
    private(set) var generatorOffsets = SIMD64<Float>(repeating: 0)
    /// NRPN MSB 120 state: the 'select' LSB sequence of SF2 NRPNs.
    private var sf2NRPNIndex = 0

    private(set) var isMono = false
    /// Last note started on the channel, for portamento and mono mode.
    var lastKey: Int = -1

    /// RPN 4 tuning bank and RPN 3 tuning program, as last set.
    private(set) var tuningBank: UInt8 = 0
    private(set) var tuningProgram: UInt8 = 0
    /// The key table the channel selected (a tuning program, or its own scale/octave tuning);
    /// nil: none, as after a reset.
    var tuning: TuningTable?
    /// What a melodic channel that selected nothing plays in (``SynthesizerConfiguration/tuning``).
    var defaultTuning: TuningTable?

    /// The key table a note started now takes: the one selected, else the default for melodic
    /// channels; nil for equal temperament.
    var activeTuning: TuningTable? { tuning ?? (isPercussion ? nil : defaultTuning) }

    /// The key whose regions a note on `key` plays. In equal temperament, and on the
    /// percussion channel, the key itself (SF2 2.04 §8.1.2: zones answer to key numbers).
    /// Under a tuning a melodic channel picks the regions of the key nearest the pitch the note
    /// sounds — its tuned pitch with the channel's coarse and fine tuning — so a sample is
    /// transposed as little as the tuning allows, as FluidSynth does (2.2 on, #932): a key
    /// that a 31-tone scale sounds an octave lower plays the samples recorded there.
    func regionKey(forKey key: Int) -> Int {
        guard !isPercussion, let tuning = activeTuning else { return key }
        let coarse = coarseTuning + generatorOffsets[Int(GeneratorType.coarseTune.rawValue)]
        let fine = fineTuning + generatorOffsets[Int(GeneratorType.fineTune.rawValue)]
        let cents = 100 * Float(key) + tuning.deviation(ofKey: key) + 100 * coarse + fine
        return min(max(Int((cents / 100 + 0.5).rounded(.down)), 0), 127)
    }

    init(index: Int, isPercussion: Bool) {
        self.index = index
        self.isPercussion = isPercussion
        self.startsAsPercussion = isPercussion
        resetAll()
    }

    var sustain: Bool { controllers[64] >= 64 }
    var soft: Bool { controllers[67] >= 64 }
    var portamento: Bool { controllers[65] >= 64 }
    var legato: Bool { controllers[68] >= 64 }

    /// Portamento time in seconds from CC5/CC37 (FluidSynth: the 14-bit value in ms).
    var portamentoTime: Float {
        Float(Int(controllers[5]) << 7 | Int(controllers[37])) / 1000
    }

    /// The key a portamento glides from for a new note (−1: none): CC84's key if set (used up
    /// by this note), else the last note's.
    func takePortamentoSource() -> Int {
        guard portamento else { return -1 }
        let from = controllers[84] != 0 ? Int(controllers[84]) : lastKey
        controllers[84] = 0
        return from
    }

    // MARK: - Messages

    /// What a controller asks of the voices on the channel, besides re-reading it.
    enum VoiceCommand: Equatable {
        case none
        /// The sustain pedal went up: sustained voices not held by sostenuto release.
        case releaseSustained
        /// The sostenuto pedal went down: voices whose key is down now are held by it.
        case holdWithSostenuto
        /// The sostenuto pedal went up: voices it held release, or stay sustained.
        case releaseSostenuto
        /// All sound off (CC120): voices stop at once.
        case soundOff
        /// Reset all controllers (CC121): voices the pedals held release.
        case releasePedalHeld
        /// All notes off, omni and mono/poly mode changes (CC123–127): keys go up.
        case notesOff
        /// RPN 3 (with the bank RPN 4 set): the channel plays in tuning program `program` of
        /// `bank`, sounding notes included.
        case selectTuning(bank: UInt8, program: UInt8)
    }

    /// Applies a control change. `bankSelectMode` decides whether bank select MSB 126/127
    /// switches the channel to drums (XG).
    func controlChange(_ cc: Int, value: UInt8, bankSelectMode: BankSelectMode) -> VoiceCommand {
        let old = controllers[cc]
        controllers[cc] = value
        setByMessage[cc] = true
        holdsDefault[cc] = false
        switch cc {
        case 0:
            bankMSB = value
            if bankSelectMode == .xg { isPercussion = value == 127 || value == 126 }
        case 32:
            bankLSB = value
        case 6, 38:
            return dataEntry(isMSB: cc == 6)
        case 96, 97:
            dataIncrement(up: cc == 96)
        case 98:
            nrpnSelected = true
            nrpn = ((nrpn ?? 0) & ~0x7F) | Int(value)
            rpn = nil
        case 99:
            nrpnSelected = true
            nrpn = ((nrpn ?? 0) & 0x7F) | Int(value) << 7
            if value == 120 { sf2NRPNIndex = 0 }
            rpn = nil
        case 100:
            nrpnSelected = false
            rpn = ((rpn ?? 0) & ~0x7F) | Int(value)
        case 101:
            nrpnSelected = false
            rpn = ((rpn ?? 0) & 0x7F) | Int(value) << 7
        case 64:
            if old >= 64 && value < 64 { return .releaseSustained }
        case 66:
            if old < 64 && value >= 64 { return .holdWithSostenuto }
            if old >= 64 && value < 64 { return .releaseSostenuto }
        case 120:
            return .soundOff
        case 121:
            resetControllers()
            applyPresetDefaults()
            return .releasePedalHeld
        case 123, 124, 125:
            return .notesOff
        case 126:
            isMono = true
            return .notesOff
        case 127:
            isMono = false
            return .notesOff
        default:
            break
        }
        return .none
    }

    /// Program change: chooses the preset for the bank-select state and the program. Returns
    /// whether controllers may have moved (``selectPreset(_:bankSelectMode:)``).
    @discardableResult
    func programChange(_ program: UInt8, presets: PresetTable, bankSelectMode: BankSelectMode) -> Bool {
        self.program = program
        return selectPreset(presets, bankSelectMode: bankSelectMode)
    }

    func pitchBend(_ value: UInt16) { pitchWheel = value }

    func pressure(_ value: UInt8) { channelPressure = value }

    func keyPressure(_ key: Int, _ value: UInt8) { polyPressure[key] = value }

    /// GS: parts assigned to or from the rhythm part change their preset at once. Returns
    /// whether controllers may have moved.
    @discardableResult
    func setPercussion(_ percussion: Bool, presets: PresetTable, bankSelectMode: BankSelectMode) -> Bool {
        isPercussion = percussion
        return selectPreset(presets, bankSelectMode: bankSelectMode)
    }

    /// Chooses the preset for the channel's bank-select state and program
    /// (``choosePreset(_:bankSelectMode:)``) and takes its controller defaults: controllers the
    /// MIDI stream has not set since the last reset hold the new preset's default, or their
    /// power-on value when it has none. Returns whether controllers may have moved (false
    /// whenever neither preset has defaults, as for every SF2 preset).
    @discardableResult
    func selectPreset(_ presets: PresetTable, bankSelectMode: BankSelectMode) -> Bool {
        choosePreset(presets, bankSelectMode: bankSelectMode)
        let defaults = presetIndex.map { presets.controllerDefaults[$0] } ?? []
        guard !(defaults.isEmpty && presetDefaults.isEmpty) else { return false }
        for d in presetDefaults where holdsDefault[Int(d.controller)] {
            holdsDefault[Int(d.controller)] = false
            controllers[Int(d.controller)] = Self.powerOnValue(d.controller)
        }
        presetDefaults = defaults
        for d in defaults where !setByMessage[Int(d.controller)] {
            controllers[Int(d.controller)] = d.value
            holdsDefault[Int(d.controller)] = true
        }
        return true
    }

    /// Reset all controllers: every controller the preset has a default for returns to it, as
    /// sfizz's reset returns every controller to its `set_ccN` value.
    private func applyPresetDefaults() {
        for d in presetDefaults {
            controllers[Int(d.controller)] = d.value
            setByMessage[Int(d.controller)] = false
            holdsDefault[Int(d.controller)] = true
        }
    }

    /// A controller's value at power-on and after a GM reset.
    static func powerOnValue(_ controller: UInt8) -> UInt8 {
        switch controller {
        case 7: 100
        case 10: 64
        case 11, 43: 127
        default: 0
        }
    }

    /// Chooses the preset, with fallbacks: drums → bank 128 program 0; melodic → bank 0 same
    /// program → bank 0 program 0.
    private func choosePreset(_ presets: PresetTable, bankSelectMode: BankSelectMode) {
        let prog = Int(program)
        let bank: Int
        if isPercussion {
            bank = 128
        } else {
            switch bankSelectMode {
            case .gm: bank = 0
            case .gs: bank = Int(bankMSB)
            case .xg: bank = Int(bankLSB)
            case .mma: bank = Int(bankMSB) << 7 | Int(bankLSB)
            }
        }
        if let i = presets.preset(bank: bank, program: prog) { presetIndex = i; return }
        if isPercussion {
            presetIndex = presets.preset(bank: 128, program: 0) ?? presets.preset(bank: 0, program: prog)
            return
        }
        presetIndex = presets.preset(bank: 0, program: prog) ?? presets.preset(bank: 0, program: 0)
    }

    // MARK: - Registered and non-registered parameters

    private func dataEntry(isMSB: Bool) -> VoiceCommand {
        if nrpnSelected, let n = nrpn {
            sf2NRPN(number: n, isMSB: isMSB)
            return .none
        }
        guard let rpn else { return .none }
        let msb = controllers[6], lsb = controllers[38]
        switch rpn {
        case 0: pitchBendRange = Float(msb) + Float(lsb) / 100
        case 1: fineTuning = Float(Int(msb) << 7 | Int(lsb) - 8192) / 8192 * 100
        case 2: coarseTuning = Float(Int(msb) - 64)
        // Tuning program and bank: data entry MSB only, as FluidSynth reads them.
        case 3 where isMSB:
            tuningProgram = msb
            return .selectTuning(bank: tuningBank, program: msb)
        case 4 where isMSB: tuningBank = msb
        case 5: modulationDepthRange = Float(msb) * 100 + Float(lsb) * 100 / 128
        default: break
        }
        return .none
    }

    private func dataIncrement(up: Bool) {
        guard !nrpnSelected, let rpn else { return }
        switch rpn {
        case 0: pitchBendRange = max(0, pitchBendRange + (up ? 1 : -1))
        case 2: coarseTuning += up ? 1 : -1
        default: break
        }
    }

    /// SF2 2.04 §9.6: NRPN MSB 120 addresses generators; LSBs 100–102 add 100/1000/10000 to
    /// the index, others select it; data entry sets a 14-bit offset (8192 = 0), scaled for
    /// some generators.
    private func sf2NRPN(number: Int, isMSB: Bool) {
        guard number >> 7 == 120 else { return }
        let lsb = number & 0x7F
        guard isMSB else { return }
        var index = sf2NRPNIndex
        switch lsb {
        case 100: index += 100
        case 101: index += 1000
        case 102: index += 10000
        default: index += lsb
        }
        guard index < GeneratorType.slotCount, let gen = GeneratorType(rawValue: UInt16(index)) else { return }
        let raw = Int(controllers[6]) << 7 | Int(controllers[38])
        var amount = Float(raw - 8192)
        switch gen {
        case .initialFilterFc, .modLfoToFilterFc, .modEnvToFilterFc, .freqModLFO, .freqVibLFO,
             .delayModLFO, .delayVibLFO, .delayModEnv, .attackModEnv, .holdModEnv, .decayModEnv,
             .releaseModEnv, .delayVolEnv, .attackVolEnv, .holdVolEnv, .decayVolEnv, .releaseVolEnv,
             .modLfoToPitch, .vibLfoToPitch, .modEnvToPitch:
            amount *= 2
        default: break
        }
        generatorOffsets[index] = amount
        sf2NRPNIndex = 0
    }

    // MARK: - Resets

    /// Full reset (power on, GM/GS/XG reset).
    func resetAll() {
        isPercussion = startsAsPercussion
        bankMSB = 0
        bankLSB = 0
        program = 0
        for i in 0..<128 {
            controllers[i] = Self.powerOnValue(UInt8(i))
            polyPressure[i] = 0
            setByMessage[i] = false
            holdsDefault[i] = false
        }
        // The preset selected next brings its defaults again.
        presetDefaults = []
        channelPressure = 0
        pitchWheel = 8192
        pitchBendRange = 2
        fineTuning = 0
        coarseTuning = 0
        modulationDepthRange = 50
        rpn = nil
        nrpn = nil
        nrpnSelected = false
        generatorOffsets = SIMD64<Float>(repeating: 0)
        isMono = false
        lastKey = -1
        tuningBank = 0
        tuningProgram = 0
        tuning = nil
    }

    /// CC121 "reset all controllers" (GM RP-015): volume, pan, bank and program are kept.
    func resetControllers() {
        controllers[1] = 0
        controllers[11] = 127
        for cc in 64...69 { controllers[cc] = 0 }
        controllers[84] = 0
        setByMessage[1] = false
        setByMessage[11] = false
        for cc in 64...69 { setByMessage[cc] = false }
        setByMessage[84] = false
        channelPressure = 0
        for i in 0..<128 { polyPressure[i] = 0 }
        pitchWheel = 8192
        rpn = nil
        nrpn = nil
        nrpnSelected = false
        generatorOffsets = SIMD64<Float>(repeating: 0)
    }
}
