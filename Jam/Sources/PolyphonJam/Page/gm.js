// General MIDI Level 1: the 16 instrument families of 8 programs each, and the percussion keys.
export const families = [
  ["Piano", ["Acoustic Grand Piano", "Bright Acoustic Piano", "Electric Grand Piano", "Honky-tonk Piano", "Electric Piano 1", "Electric Piano 2", "Harpsichord", "Clavinet"]],
  ["Chromatic Percussion", ["Celesta", "Glockenspiel", "Music Box", "Vibraphone", "Marimba", "Xylophone", "Tubular Bells", "Dulcimer"]],
  ["Organ", ["Drawbar Organ", "Percussive Organ", "Rock Organ", "Church Organ", "Reed Organ", "Accordion", "Harmonica", "Tango Accordion"]],
  ["Guitar", ["Acoustic Guitar (nylon)", "Acoustic Guitar (steel)", "Electric Guitar (jazz)", "Electric Guitar (clean)", "Electric Guitar (muted)", "Overdriven Guitar", "Distortion Guitar", "Guitar Harmonics"]],
  ["Bass", ["Acoustic Bass", "Electric Bass (finger)", "Electric Bass (pick)", "Fretless Bass", "Slap Bass 1", "Slap Bass 2", "Synth Bass 1", "Synth Bass 2"]],
  ["Strings", ["Violin", "Viola", "Cello", "Contrabass", "Tremolo Strings", "Pizzicato Strings", "Orchestral Harp", "Timpani"]],
  ["Ensemble", ["String Ensemble 1", "String Ensemble 2", "Synth Strings 1", "Synth Strings 2", "Choir Aahs", "Voice Oohs", "Synth Voice", "Orchestra Hit"]],
  ["Brass", ["Trumpet", "Trombone", "Tuba", "Muted Trumpet", "French Horn", "Brass Section", "Synth Brass 1", "Synth Brass 2"]],
  ["Reed", ["Soprano Sax", "Alto Sax", "Tenor Sax", "Baritone Sax", "Oboe", "English Horn", "Bassoon", "Clarinet"]],
  ["Pipe", ["Piccolo", "Flute", "Recorder", "Pan Flute", "Blown Bottle", "Shakuhachi", "Whistle", "Ocarina"]],
  ["Synth Lead", ["Lead 1 (square)", "Lead 2 (sawtooth)", "Lead 3 (calliope)", "Lead 4 (chiff)", "Lead 5 (charang)", "Lead 6 (voice)", "Lead 7 (fifths)", "Lead 8 (bass + lead)"]],
  ["Synth Pad", ["Pad 1 (new age)", "Pad 2 (warm)", "Pad 3 (polysynth)", "Pad 4 (choir)", "Pad 5 (bowed)", "Pad 6 (metallic)", "Pad 7 (halo)", "Pad 8 (sweep)"]],
  ["Synth Effects", ["FX 1 (rain)", "FX 2 (soundtrack)", "FX 3 (crystal)", "FX 4 (atmosphere)", "FX 5 (brightness)", "FX 6 (goblins)", "FX 7 (echoes)", "FX 8 (sci-fi)"]],
  ["Ethnic", ["Sitar", "Banjo", "Shamisen", "Koto", "Kalimba", "Bagpipe", "Fiddle", "Shanai"]],
  ["Percussive", ["Tinkle Bell", "Agogo", "Steel Drums", "Woodblock", "Taiko Drum", "Melodic Tom", "Synth Drum", "Reverse Cymbal"]],
  ["Sound Effects", ["Guitar Fret Noise", "Breath Noise", "Seashore", "Bird Tweet", "Telephone Ring", "Helicopter", "Applause", "Gunshot"]],
];

/** The GM name of a program 0–127. */
export const programName = (program) => families[program >> 3][1][program & 7];

/** GM percussion keys 35–81 and their names (the pad view). */
export const drumKeys = [
  [35, "Acoustic Bass Drum"], [36, "Bass Drum 1"], [37, "Side Stick"], [38, "Acoustic Snare"], [39, "Hand Clap"],
  [40, "Electric Snare"], [41, "Low Floor Tom"], [42, "Closed Hi-Hat"], [43, "High Floor Tom"], [44, "Pedal Hi-Hat"],
  [45, "Low Tom"], [46, "Open Hi-Hat"], [47, "Low-Mid Tom"], [48, "Hi-Mid Tom"], [49, "Crash Cymbal 1"],
  [50, "High Tom"], [51, "Ride Cymbal 1"], [52, "Chinese Cymbal"], [53, "Ride Bell"], [54, "Tambourine"],
  [55, "Splash Cymbal"], [56, "Cowbell"], [57, "Crash Cymbal 2"], [58, "Vibraslap"], [59, "Ride Cymbal 2"],
  [60, "Hi Bongo"], [61, "Low Bongo"], [62, "Mute Hi Conga"], [63, "Open Hi Conga"], [64, "Low Conga"],
  [65, "High Timbale"], [66, "Low Timbale"], [67, "High Agogo"], [68, "Low Agogo"], [69, "Cabasa"],
  [70, "Maracas"], [71, "Short Whistle"], [72, "Long Whistle"], [73, "Short Guiro"], [74, "Long Guiro"],
  [75, "Claves"], [76, "Hi Wood Block"], [77, "Low Wood Block"], [78, "Mute Cuica"], [79, "Open Cuica"],
  [80, "Mute Triangle"], [81, "Open Triangle"],
];
