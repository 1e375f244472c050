/// The names General MIDI gives its instruments: the 128 programs of GM Level 1 in their 16
/// families of eight, and the drum kits GS and GM2 number by program on the rhythm channel.
///
/// For labelling what a song plays (a picture's legend, a report) by the standard's names, not
/// by whatever a bank calls its presets.
public enum GeneralMIDI {
    /// The 16 instrument families, programs 0–7, 8–15, … 120–127.
    public static let familyNames = [
        "Piano", "Chromatic Percussion", "Organ", "Guitar", "Bass", "Strings", "Ensemble", "Brass",
        "Reed", "Pipe", "Synth Lead", "Synth Pad", "Synth Effects", "Ethnic", "Percussive", "Sound Effects",
    ]

    /// The 128 programs of General MIDI Level 1, by program number (0-based).
    public static let programNames = [
        "Acoustic Grand Piano", "Bright Acoustic Piano", "Electric Grand Piano", "Honky-tonk Piano",
        "Electric Piano 1", "Electric Piano 2", "Harpsichord", "Clavinet",
        "Celesta", "Glockenspiel", "Music Box", "Vibraphone", "Marimba", "Xylophone", "Tubular Bells", "Dulcimer",
        "Drawbar Organ", "Percussive Organ", "Rock Organ", "Church Organ", "Reed Organ", "Accordion",
        "Harmonica", "Tango Accordion",
        "Acoustic Guitar (nylon)", "Acoustic Guitar (steel)", "Electric Guitar (jazz)", "Electric Guitar (clean)",
        "Electric Guitar (muted)", "Overdriven Guitar", "Distortion Guitar", "Guitar Harmonics",
        "Acoustic Bass", "Electric Bass (finger)", "Electric Bass (pick)", "Fretless Bass", "Slap Bass 1",
        "Slap Bass 2", "Synth Bass 1", "Synth Bass 2",
        "Violin", "Viola", "Cello", "Contrabass", "Tremolo Strings", "Pizzicato Strings", "Orchestral Harp", "Timpani",
        "String Ensemble 1", "String Ensemble 2", "Synth Strings 1", "Synth Strings 2", "Choir Aahs",
        "Voice Oohs", "Synth Voice", "Orchestra Hit",
        "Trumpet", "Trombone", "Tuba", "Muted Trumpet", "French Horn", "Brass Section", "Synth Brass 1", "Synth Brass 2",
        "Soprano Sax", "Alto Sax", "Tenor Sax", "Baritone Sax", "Oboe", "English Horn", "Bassoon", "Clarinet",
        "Piccolo", "Flute", "Recorder", "Pan Flute", "Blown Bottle", "Shakuhachi", "Whistle", "Ocarina",
        "Lead 1 (square)", "Lead 2 (sawtooth)", "Lead 3 (calliope)", "Lead 4 (chiff)", "Lead 5 (charang)",
        "Lead 6 (voice)", "Lead 7 (fifths)", "Lead 8 (bass + lead)",
        "Pad 1 (new age)", "Pad 2 (warm)", "Pad 3 (polysynth)", "Pad 4 (choir)", "Pad 5 (bowed)",
        "Pad 6 (metallic)", "Pad 7 (halo)", "Pad 8 (sweep)",
        "FX 1 (rain)", "FX 2 (soundtrack)", "FX 3 (crystal)", "FX 4 (atmosphere)", "FX 5 (brightness)",
        "FX 6 (goblins)", "FX 7 (echoes)", "FX 8 (sci-fi)",
        "Sitar", "Banjo", "Shamisen", "Koto", "Kalimba", "Bagpipe", "Fiddle", "Shanai",
        "Tinkle Bell", "Agogo", "Steel Drums", "Woodblock", "Taiko Drum", "Melodic Tom", "Synth Drum", "Reverse Cymbal",
        "Guitar Fret Noise", "Breath Noise", "Seashore", "Bird Tweet", "Telephone Ring", "Helicopter",
        "Applause", "Gunshot",
    ]

    /// The name of `program` (0–127; others are clamped).
    public static func programName(_ program: Int) -> String {
        programNames[min(127, max(0, program))]
    }

    /// The family of `program` (0–127; others are clamped), 0–15.
    public static func family(ofProgram program: Int) -> Int {
        min(127, max(0, program)) / 8
    }

    /// The drum kits GS and GM2 name, by the program that selects them on the rhythm channel.
    public static let drumKitNames: [Int: String] = [
        0: "Standard Kit", 8: "Room Kit", 16: "Power Kit", 24: "Electronic Kit", 25: "TR-808 Kit",
        32: "Jazz Kit", 40: "Brush Kit", 48: "Orchestra Kit", 56: "SFX Kit", 127: "CM-64/32L Kit",
    ]

    /// The name of the drum kit `program` selects: "Standard Kit", "Jazz Kit" …, or
    /// "Drum Kit 12" for a number without a standard name.
    public static func drumKitName(_ program: Int) -> String {
        drumKitNames[program] ?? "Drum Kit \(program)"
    }
}
