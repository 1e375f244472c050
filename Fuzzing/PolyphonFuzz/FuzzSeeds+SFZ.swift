extension FuzzSeeds {
    /// SFZ instruments using every header, directive and opcode family, and the malformed
    /// shapes the reader must survive.
    static func sfzInstruments() -> [(name: String, bytes: [UInt8])] {
        let full = """
            // A seed using every family.
            /* block
               comment */
            #define $KEY c4
            #define $VEL 64
            #include "part.sfzh"
            <control> default_path=Samples\\ note_offset=1 octave_offset=-1 set_cc7=100 set_hdcc11=0.5 label_cc1=Mod hint_ram_based=1
            <global> ampeg_attack=0.01 ampeg_release=0.3 amp_veltrack=80 sw_default=c1 volume=-3
            <master> polyphony=8 tune=-10
            <group> seq_length=2 lovel=1 hivel=$VEL group=1 off_by=2 off_mode=time off_time=0.1 trigger=attack
            <region> sample=B.wav key=$KEY seq_position=1 pitch_keycenter=sample loop_mode=loop_continuous loop_start=10 loop_end=900
            <region> sample=b.WAV lokey=c#4 hikey=g9 seq_position=2 tune_oncc1=100 volume_cc7=-20 volume_curvecc7=4 pan=-50 width=50 position=10
            <group> trigger=release rt_decay=3 sw_last=c1 sw_lokey=c1 sw_hikey=d1 sw_label=Soft
            <region> sample=*sine lokey=60 hikey=72 fil_type=lpf_4p cutoff=800 resonance=6 fil_keytrack=100 fil_veltrack=2400 cutoff_oncc74=2400
            <region> sample=*saw key=d4 fileg_attack=0.1 fileg_depth=1200 pitcheg_decay=0.2 pitcheg_depth=-100 pitchlfo_freq=5 pitchlfo_depth=20
            <region> sample=*noise key=e4 amplfo_freq=3 amplfo_depth=2 fillfo_freq=1 fillfo_depthcc1=600 lfo1_freq=2 lfo1_wave=1 lfo1_pitch=50 lfo1_cutoff2=300
            <region> sample=a.wav key=f4 eg1_time1=0.1 eg1_level1=1 eg1_sustain=1 eg1_ampeg=1 lfo2_steps=4 lfo2_step1=100 eq1_freq=200 eq1_gain=6
            <region> sample=a.wav key=g4 xfin_lovel=0 xfin_hivel=64 xfout_locc1=64 xfout_hicc1=127 xf_velcurve=gain amp_velcurve_64=0.5
            <region> sample=a.wav hikey=-1 on_locc64=64 start_hicc64=127 lorand=0.5 hirand=1 locc1=0 hicc1=63 lobend=-8192 hibend=0
            <region> sample=a.wav key=a4 offset=100 offset_random=10 end=800 count=2 delay=0.1 direction=reverse oscillator=on
            <curve> curve_index=7 v000=0 v064=1 v127=0
            <effect> type=fverb bus=fx1
            """
        let broken = [
            "<region sample=a.wav key=60\n<group\n<region> key=61 sample=a.wav",
            "<region> sample=a.wav /* never closed",
            "#define $A $A\n<region> sample=$A key=1",
            "#define $B $B$B$B$B\n<region> sample=$B$B$B$B key=1",
            "#include \"part.sfzh\"\n<region> sample=a.wav",
            "<region> lokey=500 sample=a.wav\n<region> trigger=maybe sample=gone.wav\n<region> lfo4000000000_freq=1 sample=a.wav",
            "lokey=1 hikey=2\n<region>\n<region> sample=*bogus\n<region> sample=a.wav end=0",
            "\u{FEFF}<control> default_path=../../../\n<region> sample=a.wav\n#pragma\n#include nope",
        ]
        // Permissive opcodes keep any finite value: every time, depth and frequency at its extremes.
        let absurd = """
            <region> sample=*sine key=60 pitchlfo_freq=1e30 pitchlfo_depth=-1e30 pitchlfo_delay=1e30 pitchlfo_fade=1e-40
            <region> sample=a.wav key=61 amplfo_freq=-1e30 amplfo_depth=1e30 amplfo_delay=1e30 fillfo_delay=1e30 cutoff=1e30
            <region> sample=a.wav key=62 pitcheg_depth=1e30 pitcheg_delay=1e30 fileg_attack=1e30 fileg_depth=-1e30 resonance=1e30
            <region> sample=a.wav key=63 fil_type=hpf_6p cutoff=-1e30 fil_keytrack=1e30 fil_keycenter=1e30 fil_veltrack=-1e30
            <region> sample=a.wav key=64 ampeg_attack=1e30 ampeg_release=1e30 rt_decay=1e30 trigger=release delay=1e30 offset=1e30
            <region> sample=a.wav key=65 offset_oncc1=1e30 offset_random=4000000000 delay_oncc1=-1e30 delay_random=1e30 ampeg_start=1e30 ampeg_attack_oncc1=1e30 ampeg_sustain_oncc1=-1e30 ampeg_vel2release=1e30 polyphony=0 note_polyphony=1 sustain_lo=1e30
            """
        var out = [("full.sfz", Array(full.utf8)), ("absurd.sfz", Array(absurd.utf8))]
        for (index, text) in broken.enumerated() { out.append(("broken-\(index).sfz", Array(text.utf8))) }
        // Latin-1 bytes in a sample name.
        out.append(("latin1.sfz", Array("<region> sample=Fl".utf8) + [0xFB] + Array("te.wav key=60".utf8)))
        return out
    }
}
