/// The other names opcodes go by — SFZ v1 and v2 spellings, ARIA and Cakewalk variants — and
/// the one name each resolves to, following sfizz's table (its `OpcodeCleanup.re`), so
/// `ampeg_vel2attack`, `loopmode`, `filtype`, `tune`, `gain_cc7` and `on_locc64` read as
/// `ampeg_veltoattack`, `loop_mode`, `fil1_type`, `pitch`, `volume_oncc7` and `start_locc64`.
///
/// Filters, LFO sub-waves and filter targets take an index; a name without one means the first:
/// `cutoff` is `cutoff1`, `fil_veltrack` is `fil1_veltrack`, `lfo1_wave` is `lfo1_wave1`.
public enum SFZOpcodeAliases {
    /// The region-scope name for the lower-case `name`.
    public static func regionName(_ name: String) -> String {
        var text = Array(name.utf8)[...]
        // `…_ccN` is always `…_onccN`.
        if let (head, number) = split(text, suffixMarker: "_cc") {
            text = (head + Array("_oncc".utf8) + number)[...]
        }
        for _ in 0..<4 {
            guard let (replaced, again) = rewrite(text) else { break }
            text = replaced[...]
            if !again { break }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The control-scope name for the lower-case `name`: `set_realccN` is `set_hdccN`.
    public static func controlName(_ name: String) -> String {
        let text = Array(name.utf8)[...]
        if let rest = text.dropping(prefix: "set_realcc"), isNumber(rest) {
            return "set_hdcc" + String(decoding: rest, as: UTF8.self)
        }
        return name
    }

    // MARK: The rules

    private static let legacyLFOs = ["amplfo_", "fillfo_", "pitchlfo_"]
    private static let legacyEnvelopes = ["ampeg_", "fileg_", "pitcheg_"]
    private static let envelopeStages = ["delay", "start", "attack", "hold", "decay", "sustain", "release"]

    /// One rule applied to the whole name, as re2c does (the first rule in sfizz's order that
    /// matches all of it); `again` when the result must be looked at once more.
    private static func rewrite(_ t: ArraySlice<UInt8>) -> (ArraySlice<UInt8>, again: Bool)? {
        func done(_ parts: [String], _ tail: ArraySlice<UInt8> = []) -> (ArraySlice<UInt8>, again: Bool) {
            (Array(parts.joined().utf8)[...] + tail, false)
        }
        // amplfo_depthccN → amplfo_depth_onccN
        for lfo in legacyLFOs {
            guard let rest = t.dropping(prefix: lfo) else { continue }
            for parameter in ["depth", "freq", "fade"] {
                if let n = rest.dropping(prefix: parameter + "cc"), isNumber(n) { return done([lfo, parameter, "_oncc"], n) }
            }
        }
        for eg in legacyEnvelopes {
            guard let rest = t.dropping(prefix: eg) else { continue }
            // ampeg_attackccN → ampeg_attack_onccN
            for stage in envelopeStages {
                if let n = rest.dropping(prefix: stage + "cc"), isNumber(n) { return done([eg, stage, "_oncc"], n) }
            }
            // ampeg_vel2attack → ampeg_veltoattack
            if let tail = rest.dropping(prefix: "vel2") { return done([eg, "velto"], tail) }
        }
        // eqN_freqccM → eqN_freq_onccM; eqN_vel2freq → eqN_veltofreq
        if let (index, rest) = numbered(t, prefix: "eq"), let rest = rest.dropping(prefix: "_") {
            let eq = "eq" + String(decoding: index, as: UTF8.self) + "_"
            for parameter in ["bw", "freq", "gain"] {
                if let n = rest.dropping(prefix: parameter + "cc"), isNumber(n) { return done([eq, parameter, "_oncc"], n) }
            }
            if let tail = rest.dropping(prefix: "vel2") { return done([eq, "velto"], tail) }
        }
        // lfoN_wave → lfoN_wave1; lfoN_cutoff[_…] → lfoN_cutoff1[_…]; egN_cutoff[_…] likewise
        for kind in ["lfo", "eg"] {
            guard let (index, rest) = numbered(t, prefix: kind), let rest = rest.dropping(prefix: "_") else { continue }
            let head = kind + String(decoding: index, as: UTF8.self) + "_"
            if kind == "lfo" {
                for parameter in ["wave", "offset", "ratio", "scale"] where rest.elementsEqual(parameter.utf8) {
                    return done([head, parameter, "1"])
                }
            }
            for parameter in ["cutoff", "resonance"] {
                guard let tail = rest.dropping(prefix: parameter) else { continue }
                if tail.isEmpty || tail.first == UInt8(ascii: "_") { return done([head, parameter, "1"], tail) }
            }
        }
        // loopmode, offby, bendup …
        for (prefix, words) in [("loop", ["mode", "start", "end"]), ("off", ["by", "mode"]), ("bend", ["up", "down", "step"])] {
            guard let rest = t.dropping(prefix: prefix) else { continue }
            for word in words where rest.elementsEqual(word.utf8) { return done([prefix, "_", word]) }
        }
        if t.elementsEqual("filtype".utf8) { return done(["fil1_type"]) }
        if let (index, rest) = numbered(t, prefix: "fil"), rest.elementsEqual("type".utf8) {
            return done(["fil", String(decoding: index, as: UTF8.self), "_type"])
        }
        if t.elementsEqual("polyphony_group".utf8) { return done(["group"]) }
        if t.elementsEqual("gain_random".utf8) { return done(["amp_random"]) }
        // gain[_…] → volume[_…]; tune[_…] → pitch[_…]
        for (old, new) in [("gain", "volume"), ("tune", "pitch")] {
            if let tail = t.dropping(prefix: old), tail.isEmpty || tail.first == UInt8(ascii: "_") { return done([new], tail) }
        }
        // on_loccN → start_loccN (and hi, hdcc)
        if let rest = t.dropping(prefix: "on_") {
            for bound in ["hi", "lo"] {
                for kind in ["cc", "hdcc"] {
                    if let n = rest.dropping(prefix: bound + kind), isNumber(n) { return done(["start_", bound, kind], n) }
                }
            }
        }
        // cutoff[N]_random → fil[N]_random, then once more (fil_random → fil1_random)
        if let rest = t.dropping(prefix: "cutoff"), rest.count >= 7, rest.suffix(7).elementsEqual("_random".utf8) {
            let index = rest.dropLast(7)
            if index.isEmpty || isNumber(index) {
                return (Array(("fil" + String(decoding: index, as: UTF8.self) + "_random").utf8)[...], true)
            }
        }
        if let tail = t.dropping(prefix: "fil_") { return done(["fil1_"], tail) }
        for word in ["cutoff", "resonance"] {
            if let tail = t.dropping(prefix: word), tail.isEmpty || tail.first == UInt8(ascii: "_") { return done([word, "1"], tail) }
        }
        // hirealccN → hihdccN
        for bound in ["hi", "lo"] {
            if let n = t.dropping(prefix: bound + "realcc"), isNumber(n) { return done([bound, "hdcc"], n) }
        }
        if let n = t.dropping(prefix: "loop_startcc"), isNumber(n) { return done(["loop_start_oncc"], n) }
        if let n = t.dropping(prefix: "loop_lengthcc"), isNumber(n) { return done(["loop_end_oncc"], n) }
        if let n = t.dropping(prefix: "loop_length_oncc"), isNumber(n) { return done(["loop_end_oncc"], n) }
        return nil
    }

    // MARK: Matching helpers

    private static func isNumber(_ text: ArraySlice<UInt8>) -> Bool {
        !text.isEmpty && text.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// `head` and the number when `text` ends with `marker` followed by digits only.
    private static func split(_ text: ArraySlice<UInt8>, suffixMarker marker: String)
        -> (ArraySlice<UInt8>, ArraySlice<UInt8>)? {
        var digitsStart = text.endIndex
        while digitsStart > text.startIndex, text[digitsStart - 1] >= UInt8(ascii: "0"), text[digitsStart - 1] <= UInt8(ascii: "9") {
            digitsStart -= 1
        }
        guard digitsStart < text.endIndex else { return nil }
        let head = text[..<digitsStart]
        guard head.count >= marker.utf8.count, head.suffix(marker.utf8.count).elementsEqual(marker.utf8) else { return nil }
        return (head.dropLast(marker.utf8.count), text[digitsStart...])
    }

    /// The digits after `prefix` and what follows them, when `text` starts with `prefix` and a
    /// number.
    private static func numbered(_ text: ArraySlice<UInt8>, prefix: String)
        -> (ArraySlice<UInt8>, ArraySlice<UInt8>)? {
        guard let rest = text.dropping(prefix: prefix) else { return nil }
        let digits = rest.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard !digits.isEmpty else { return nil }
        return (digits, rest.dropFirst(digits.count))
    }
}

extension ArraySlice where Element == UInt8 {
    /// The rest after `prefix`, nil when the slice does not start with it.
    func dropping(prefix: String) -> ArraySlice<UInt8>? {
        guard starts(with: prefix.utf8) else { return nil }
        return dropFirst(prefix.utf8.count)
    }
}
