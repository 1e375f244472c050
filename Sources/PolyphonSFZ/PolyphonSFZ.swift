// PolyphonSFZ is PolyphonSFZCore — the SFZ reader and instrument model, portable — plus what
// needs the machine: the disk (with case-insensitive paths for libraries made on Windows) and
// sample files decoded through PolyphonAudio, lazily and once for every synthesizer.
@_exported import PolyphonSFZCore
