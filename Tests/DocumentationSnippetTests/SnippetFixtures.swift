import Foundation
import PolyphonSoundFont
import PolyphonTestSupport

/// Small real inputs for running the documentation's code: banks and songs built in code and
/// written to a temporary directory, so every snippet runs on any machine.
enum SnippetFixtures {
    /// A bank whose every preset a song may ask for (bank 0, programs 0…127, and the drum kit)
    /// plays a looped sine at A4 (key 69): ``SineBank/everyProgram()``.
    static func sineBank() -> SoundFont { SineBank.everyProgram() }

    /// ``sineBank()`` written as an .sf2 file in `directory`.
    static func sineBankFile(in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("sine.sf2")
        try sineBank().write(to: path)
        return path
    }
}
