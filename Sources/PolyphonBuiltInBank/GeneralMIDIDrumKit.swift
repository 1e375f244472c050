import PolyphonSoundFont

/// The GM standard drum kit (keys 35–81) of the built-in bank: which one-shot each key plays,
/// tuned, panned and enveloped as a drummer's kit is laid out.
enum GeneralMIDIDrumKit {
    /// One key of the kit.
    struct Drum: Sendable {
        var key: UInt8
        var name: String
        var sound: DrumSound
        /// Semitones from the sample's own pitch.
        var tune = 0.0
        /// Seconds for the level to fall 96 dB, while the key is held and after it is let go alike,
        /// so a hit dies the same way however long its note (nil = the sample's own length,
        /// ringing on after the release). Set from a real GM kit's hits (FluidR3_GM: the 10 ms
        /// envelope of a hit held 60 and 150 ms at velocity 100), where the sample alone rings
        /// too long.
        var decay: Double? = nil
        /// Pan, −1 (left) … 1 (right), from the listener's seat.
        var pan = 0.0
        /// Level trim in dB, set so that the drum plays at a real GM kit's level: its hits in the
        /// level set of `GeneralMIDILevelTests` (velocities 50, 85 and 115, twice each, 0.35 s
        /// apart) have the energy of FluidR3_GM's.
        var gain = 0.0
        /// Keys of the same class cut each other off (the hi-hat pedal closes the open hat).
        var exclusiveClass = 0
        /// Low-pass cutoff in Hz (nil = open): a real GM kit's snares fall away steeply above
        /// 8 kHz (FluidR3_GM's by 30-40 dB from 6-8 kHz to 14-16 kHz), more than the wires' noise does.
        var filter: Double? = nil
    }

    static let drums: [Drum] = [
        Drum(key: 35, name: "Acoustic Bass Drum", sound: .kick, tune: -2, gain: -2.9),
        Drum(key: 36, name: "Bass Drum 1", sound: .kick, decay: 1.2, gain: -0.8),
        Drum(key: 37, name: "Side Stick", sound: .sideStick, pan: -0.1, gain: -9.7),
        Drum(key: 38, name: "Acoustic Snare", sound: .snare, decay: 1, pan: -0.1, gain: -1.4, filter: 8000),
        Drum(key: 39, name: "Hand Clap", sound: .clap, decay: 1.5, pan: 0.1, gain: -2.8),
        Drum(key: 40, name: "Electric Snare", sound: .snare, tune: 3, decay: 0.6, pan: -0.1, gain: -2.2, filter: 8000),
        Drum(key: 41, name: "Low Floor Tom", sound: .tom, tune: -4, pan: 0.5, gain: 1.5),
        Drum(key: 42, name: "Closed Hi-Hat", sound: .hiHat, decay: 0.4, pan: -0.35, gain: -6.6, exclusiveClass: 1),
        Drum(key: 43, name: "High Floor Tom", sound: .tom, tune: -1, pan: 0.35, gain: 2.7),
        Drum(key: 44, name: "Pedal Hi-Hat", sound: .hiHat, tune: -2, decay: 0.25, pan: -0.35, gain: -3.8, exclusiveClass: 1),
        Drum(key: 45, name: "Low Tom", sound: .tom, tune: 2, pan: 0.2, gain: -0.7),
        Drum(key: 46, name: "Open Hi-Hat", sound: .hiHat, pan: -0.35, gain: -11.1, exclusiveClass: 1),
        Drum(key: 47, name: "Low-Mid Tom", sound: .tom, tune: 5, pan: 0.05, gain: -0.3),
        Drum(key: 48, name: "Hi-Mid Tom", sound: .tom, tune: 8, pan: -0.1, gain: -0.1),
        Drum(key: 49, name: "Crash Cymbal 1", sound: .crash, pan: -0.4, gain: 1.6),
        Drum(key: 50, name: "High Tom", sound: .tom, tune: 11, pan: -0.25, gain: -1.1),
        Drum(key: 51, name: "Ride Cymbal 1", sound: .ride, pan: 0.4, gain: -8.6),
        Drum(key: 52, name: "Chinese Cymbal", sound: .crash, tune: -3, pan: 0.5, gain: -3.6),
        Drum(key: 53, name: "Ride Bell", sound: .rideBell, pan: 0.4, gain: -8.2),
        Drum(key: 54, name: "Tambourine", sound: .tambourine, decay: 2, pan: 0.2, gain: -4.6),
        Drum(key: 55, name: "Splash Cymbal", sound: .crash, tune: 5, decay: 4, pan: -0.5, gain: -5.7),
        Drum(key: 56, name: "Cowbell", sound: .cowbell, tune: -7, decay: 1.2, pan: 0.3, gain: -8.8),
        Drum(key: 57, name: "Crash Cymbal 2", sound: .crash, tune: 1.5, pan: 0.45, gain: 1.1),
        Drum(key: 58, name: "Vibraslap", sound: .vibraslap, pan: 0.3, gain: -0.1),
        Drum(key: 59, name: "Ride Cymbal 2", sound: .ride, tune: -1.5, pan: 0.5, gain: -10.4),
        Drum(key: 60, name: "Hi Bongo", sound: .handDrum, tune: 14, pan: 0.3, gain: -4.1),
        Drum(key: 61, name: "Low Bongo", sound: .handDrum, tune: 7, pan: 0.3, gain: -3.8),
        Drum(key: 62, name: "Mute Hi Conga", sound: .handDrum, tune: 14, decay: 0.6, pan: -0.3, gain: -4.2),
        Drum(key: 63, name: "Open Hi Conga", sound: .handDrum, tune: -6, pan: -0.3, gain: -4.9),
        Drum(key: 64, name: "Low Conga", sound: .handDrum, tune: -8, pan: -0.3, gain: -2.9),
        Drum(key: 65, name: "High Timbale", sound: .timbale, pan: 0.1, gain: -2.8),
        Drum(key: 66, name: "Low Timbale", sound: .timbale, tune: -5, pan: 0.1, gain: -2.1),
        Drum(key: 67, name: "High Agogo", sound: .agogo, pan: 0.4, gain: -10.4),
        Drum(key: 68, name: "Low Agogo", sound: .agogo, tune: -5, pan: 0.4, gain: -11),
        Drum(key: 69, name: "Cabasa", sound: .shaker, tune: -3, decay: 1.2, pan: -0.4, gain: -5.5),
        Drum(key: 70, name: "Maracas", sound: .shaker, decay: 1.2, pan: -0.4, gain: -9.8),
        Drum(key: 71, name: "Short Whistle", sound: .whistle, decay: 0.8, pan: 0.5, gain: 2.9, exclusiveClass: 2),
        Drum(key: 72, name: "Long Whistle", sound: .whistle, pan: 0.5, gain: -3.8, exclusiveClass: 2),
        Drum(key: 73, name: "Short Guiro", sound: .guiro, decay: 0.9, pan: 0.4, gain: 3.2, exclusiveClass: 3),
        Drum(key: 74, name: "Long Guiro", sound: .guiro, pan: 0.4, gain: -3.6, exclusiveClass: 3),
        Drum(key: 75, name: "Claves", sound: .claves, pan: 0.2, gain: -6.9),
        Drum(key: 76, name: "Hi Wood Block", sound: .woodBlock, pan: 0.3, gain: -7.5),
        Drum(key: 77, name: "Low Wood Block", sound: .woodBlock, tune: -5, pan: 0.3, gain: -8.1),
        Drum(key: 78, name: "Mute Cuica", sound: .cuica, decay: 0.7, pan: -0.2, gain: 6.3, exclusiveClass: 4),
        Drum(key: 79, name: "Open Cuica", sound: .cuica, pan: -0.2, gain: 6.3, exclusiveClass: 4),
        Drum(key: 80, name: "Mute Triangle", sound: .triangle, decay: 0.6, pan: -0.5, gain: -0.3, exclusiveClass: 5),
        Drum(key: 81, name: "Open Triangle", sound: .triangle, pan: -0.5, gain: -1.9, exclusiveClass: 5),
    ]
}
