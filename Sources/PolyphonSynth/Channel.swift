/// The state of one MIDI channel: controllers, program and bank, pitch wheel, pressures,
/// registered/non-registered parameters and pedals. Voices read it when they start and when a
/// controller they depend on changes.
final class Channel {
    let index: Int
    var isPercussion: Bool
    let startsAsPercussion: Bool

    var bankMSB: UInt8 = 0
    var bankLSB: UInt8 = 0
    var program: UInt8 = 0
    /// Index into the synthesizer's preset table, resolved at program change.
    var presetIndex: Int?

    /// 7-bit controller values (MSB for 14-bit pairs).
    var controllers = [UInt8](repeating: 0, count: 128)
    var polyPressure = [UInt8](repeating: 0, count: 128)
    var channelPressure: UInt8 = 0
    /// 14-bit pitch wheel, 8192 = centre.
    var pitchWheel: UInt16 = 8192

    /// RPN 0, in semitones (MSB) + cents (LSB).
    var pitchBendRange: Float = 2
    /// RPN 1 fine tuning in cents (−100…+100), RPN 2 coarse tuning in semitones.
    var fineTuning: Float = 0
    var coarseTuning: Float = 0
    /// RPN 5 modulation depth range in cents (GM2).
    var modulationDepthRange: Float = 50

    /// Selected parameter for data entry: 14-bit number, or nil for "null".
    var rpn: Int? = nil
    var nrpn: Int? = nil
    var nrpnSelected = false
    var dataEntryMSB: UInt8 = 0
    /// SF2 §9.6 NRPN generator offsets, added to every voice of the channel.
    var generatorOffsets = SIMD64<Float>(repeating: 0)
    /// NRPN MSB 120 state: the 'select' LSB sequence of SF2 NRPNs.
    var sf2NRPNIndex = 0

    var isMono = false
    /// Last note started on the channel, for portamento and mono mode.
    var lastKey: Int = -1

    init(index: Int, isPercussion: Bool) {
        self.index = index
        self.isPercussion = isPercussion
        self.startsAsPercussion = isPercussion
        resetAll()
    }

    var sustain: Bool { controllers[64] >= 64 }
    var sostenuto: Bool { controllers[66] >= 64 }
    var soft: Bool { controllers[67] >= 64 }
    var portamento: Bool { controllers[65] >= 64 }
    var legato: Bool { controllers[68] >= 64 }

    /// Portamento time in seconds from CC5/CC37 (FluidSynth: the 14-bit value in ms).
    var portamentoTime: Float {
        Float(Int(controllers[5]) << 7 | Int(controllers[37])) / 1000
    }

    /// Full reset (power on, GM/GS/XG reset).
    func resetAll() {
        isPercussion = startsAsPercussion
        bankMSB = 0
        bankLSB = 0
        program = 0
        for i in 0..<128 { controllers[i] = 0; polyPressure[i] = 0 }
        controllers[7] = 100
        controllers[10] = 64
        controllers[11] = 127
        controllers[39] = 0
        controllers[43] = 127
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
    }

    /// CC121 "reset all controllers" (GM RP-015): volume, pan, bank and program are kept.
    func resetControllers() {
        controllers[1] = 0
        controllers[11] = 127
        for cc in 64...69 { controllers[cc] = 0 }
        controllers[84] = 0
        channelPressure = 0
        for i in 0..<128 { polyPressure[i] = 0 }
        pitchWheel = 8192
        rpn = nil
        nrpn = nil
        nrpnSelected = false
        generatorOffsets = SIMD64<Float>(repeating: 0)
    }
}
