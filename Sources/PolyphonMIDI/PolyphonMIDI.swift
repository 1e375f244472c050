// PolyphonMIDI module.
