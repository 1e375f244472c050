// PolyphonSynth module.
