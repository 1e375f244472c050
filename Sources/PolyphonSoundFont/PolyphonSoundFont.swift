// PolyphonSoundFont is PolyphonSoundFontCore — the bank model, SF2/SF3 read from and written to
// bytes, region resolution — plus what needs the machine it runs on: banks memory-mapped from
// files, SF3's Ogg Vorbis samples decoded through libvorbisfile, the DLS and SoundBankPlayer
// (plist) readers, and finding the bank to play. The core is portable (no Foundation; it also
// builds as Embedded Swift for WebAssembly); this layer adds the rest.
@_exported import PolyphonSoundFontCore
