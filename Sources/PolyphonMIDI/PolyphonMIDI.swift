// PolyphonMIDI is PolyphonMIDICore — messages, Standard MIDI Files as bytes, the tempo map,
// songs, the live byte-stream parser — plus reading and writing them as files. The core is
// portable (no Foundation; it also builds as Embedded Swift for WebAssembly); this layer adds
// what needs a file system.
@_exported import PolyphonMIDICore
