import Testing
@testable import PolyphonSFZCore

/// Opcode aliases (SFZ v1 and v2 spellings resolved as sfizz resolves them) and note names.
@Suite struct SFZOpcodeNameTests {
    @Test(arguments: [
        ("ampeg_vel2attack", "ampeg_veltoattack"), ("pitcheg_vel2depth", "pitcheg_veltodepth"),
        ("ampeg_attackcc1", "ampeg_attack_oncc1"), ("fileg_releasecc74", "fileg_release_oncc74"),
        ("amplfo_depthcc1", "amplfo_depth_oncc1"), ("pitchlfo_freqcc2", "pitchlfo_freq_oncc2"),
        ("volume_cc7", "volume_oncc7"), ("pan_cc10", "pan_oncc10"), ("gain_cc7", "volume_oncc7"),
        ("gain", "volume"), ("gain_random", "amp_random"), ("tune", "pitch"), ("tune_oncc3", "pitch_oncc3"),
        ("loopmode", "loop_mode"), ("loopstart", "loop_start"), ("loopend", "loop_end"),
        ("offby", "off_by"), ("offmode", "off_mode"), ("bendup", "bend_up"), ("benddown", "bend_down"),
        ("filtype", "fil1_type"), ("fil2type", "fil2_type"), ("fil_type", "fil1_type"), ("fil_veltrack", "fil1_veltrack"),
        ("cutoff", "cutoff1"), ("cutoff_oncc74", "cutoff1_oncc74"), ("cutoff_cc74", "cutoff1_oncc74"), ("cutoff2", "cutoff2"),
        ("resonance", "resonance1"), ("cutoff_random", "fil1_random"), ("cutoff2_random", "fil2_random"),
        ("polyphony_group", "group"), ("on_locc64", "start_locc64"), ("on_hihdcc1", "start_hihdcc1"),
        ("lorealcc5", "lohdcc5"), ("loop_lengthcc3", "loop_end_oncc3"), ("loop_startcc3", "loop_start_oncc3"),
        ("lfo1_wave", "lfo1_wave1"), ("lfo2_cutoff", "lfo2_cutoff1"), ("lfo2_cutoff_oncc1", "lfo2_cutoff1_oncc1"),
        ("eg1_resonance", "eg1_resonance1"), ("eq1_freqcc5", "eq1_freq_oncc5"), ("eq2_vel2gain", "eq2_veltogain"),
        ("AmpEG_Release", "ampeg_release"), ("LoKey", "lokey"), ("lokey", "lokey"), ("sample", "sample"),
    ])
    func regionAliasesResolveToSfizzNames(written: String, canonical: String) {
        #expect(SFZOpcodeName(written, scope: .region).canonical == canonical)
    }

    @Test func controlScopeHasItsOwnAliases() {
        #expect(SFZOpcodeName("set_realcc7", scope: .control).canonical == "set_hdcc7")
        #expect(SFZOpcodeName("set_realcc7", scope: .region).canonical == "set_realcc7")
    }

    @Test func namesSplitIntoAPatternAndNumbers() {
        let name = SFZOpcodeName("lfo2_cutoff1_oncc74", scope: .region)
        #expect(name.pattern == "lfo&_cutoff&_oncc&")
        #expect(name.numbers == [2, 1, 74])
        #expect(SFZOpcodeName("amp_velcurve_127", scope: .region).pattern == "amp_velcurve_&")
        // Absurdly long numbers saturate instead of overflowing.
        #expect(SFZOpcodeName("lfo99999999999999999999999_freq", scope: .region).numbers == [1 << 40])
    }

    @Test(arguments: [
        ("c4", 60), ("C4", 60), ("c-1", 0), ("g9", 127), ("a4", 69), ("f#3", 54), ("F#3", 54), ("db5", 73),
        ("bb2", 46), ("c#-1", 1), ("e4", 64), ("b3", 59), ("g\u{266F}4", 68), ("a\u{266D}4", 68),
    ])
    func noteNamesUseSfizzOctaves(name: String, number: Int) {
        #expect(SFZNoteName.noteNumber(name.utf8) == number)
    }

    @Test(arguments: ["h4", "e#4", "fb4", "cb4", "b#3", "g#9", "c", "c4x", "", "#4", "c 4", "c-2"])
    func thingsThatAreNotNotesAreRefused(name: String) {
        #expect(SFZNoteName.noteNumber(name.utf8) == nil)
    }

    @Test func noteNamesRoundTrip() {
        for key in 0...127 { #expect(SFZNoteName.noteNumber(SFZNoteName.name(of: key).utf8) == key) }
    }

    @Test func numbersAreReadByTheirLeadingPart() {
        #expect(SFZValueReader.leadingInteger("60abc") == 60)
        #expect(SFZValueReader.leadingInteger("-12") == -12)
        #expect(SFZValueReader.leadingInteger("+7.9") == 7)
        #expect(SFZValueReader.leadingInteger("x") == nil)
        #expect(SFZValueReader.leadingInteger("99999999999999999999") == nil)
        #expect(SFZValueReader.leadingReal("0.5s") == 0.5)
        #expect(SFZValueReader.leadingReal("-1.25e2") == -125)
        #expect(SFZValueReader.leadingReal(".5") == 0.5)
        #expect(SFZValueReader.leadingReal("60.5") == 60.5)
        #expect(SFZValueReader.leadingReal("1e999") == nil)
        #expect(SFZValueReader.leadingReal("nan") == nil)
        #expect(SFZValueReader.leadingReal("1e-999") == 0)
        #expect(SFZValueReader.boolean("On") == true)
        #expect(SFZValueReader.boolean("off") == false)
        #expect(SFZValueReader.boolean("1") == true)
        #expect(SFZValueReader.boolean("maybe") == nil)
    }
}
