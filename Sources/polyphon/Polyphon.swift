import ArgumentParser

@main
struct Polyphon: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "polyphon",
        abstract: "SoundFont synthesizer, MIDI toolkit and renderer.",
        subcommands: [])
}
