// PolyphonAudio module.
