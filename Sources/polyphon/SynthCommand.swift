import ArgumentParser
import Foundation
import PolyphonAudio
import PolyphonLive
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth

/// `polyphon synth`: a live synthesizer playing MIDI from the ALSA sequencer or stdin.
struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth",
        abstract: "Play MIDI live: from the ALSA sequencer or raw MIDI bytes on stdin.",
        discussion: """
            Opens a sequencer port others can connect to (aconnect, aplaymidi -p) or connects to \
            --midi-in, and plays through PulseAudio or ALSA (the first that works, or --backend). \
            With --stdin it reads raw MIDI bytes (running status, SysEx) and, at the end of \
            input, plays until the sound has died away (at most --max-tail seconds). --rate is \
            the rate asked of the device, which may choose another (the 'playing through' line says). \
            A summary with the underrun count goes to stderr at the end.
            """)

    @Option(name: .customLong("midi-in"), help: "Sequencer port to connect to (client:port or a client name).")
    var midiIn: String?

    @Flag(name: .customLong("stdin"), help: "Read raw MIDI bytes from standard input instead of the sequencer.")
    var readStandardInput = false

    @Flag(help: "List MIDI ports and audio devices, then exit.")
    var list = false

    @OptionGroup var output: LiveOutputOptions

    @OptionGroup var synthesis: SynthesisOptions

    @OptionGroup var sampleRate: SampleRateOption

    @OptionGroup var tail: TailOption

    func validate() throws {
        if readStandardInput && midiIn != nil { throw ValidationError("--stdin and --midi-in exclude each other") }
    }

    func run() throws {
        if list {
            LiveDeviceList.print()
            return
        }
        // Say at once when there is no sequencer, before loading a bank.
        if !readStandardInput && !LiveDeviceList.sequencerAvailable {
            throw CLIError("this machine has no ALSA sequencer device (no /dev/snd/seq); use --stdin to play MIDI bytes from standard input")
        }
        let (soundBank, _) = try synthesis.bank.load(quiet: false)
        let output = try self.output.open(sampleRate: sampleRate.rate)
        let device = output.output
        let configuration = synthesis.configuration
        let threads = synthesis.threads ?? 1
        let synthesizer = try Synthesizer(soundBank: soundBank, sampleRate: device.sampleRate, configuration: configuration,
                                          threads: threads > 1 ? RenderThreads(count: threads) : nil)
        let live = LiveSynthesizer(synthesizer: synthesizer)
        note(String(format: "polyphon: playing through %@ '%@' at %.0f Hz, period %d frames (%.1f ms), buffer %d frames",
                    device.backendName, device.deviceName, device.sampleRate, device.periodFrames,
                    1000 * Double(device.periodFrames) / device.sampleRate, device.bufferFrames))
        do {
            try output.start { left, right, frames in live.render(left: left, right: right, frameCount: frames) }
        } catch {
            throw CLIError(error.description)
        }
        let started = Date()
        if readStandardInput {
            LiveStandardInput.play(into: live, output: output, tail: tail.seconds)
        } else {
            let input: ALSASequencerInput
            do {
                input = try ALSASequencerInput(source: midiIn)
            } catch {
                output.stop(drain: false)
                throw CLIError(error.description)
            }
            note("polyphon: listening on sequencer port \(input.address)\(midiIn.map { ", connected to \($0)" } ?? ""); Ctrl-C to stop")
            input.start { messages in live.sendNotingFailures(messages) }
            LiveInterrupt.waitForInterrupt()
        }
        output.stop(drain: true)
        device.close()
        let statistics = output.statistics
        note(String(format: "polyphon: played %.2f s (%d frames written), %d underruns, peak render load %.0f%%%@",
                    Date().timeIntervalSince(started), statistics.framesWritten, statistics.underruns,
                    100 * statistics.peakLoad,
                    output.writeError.map { ", stopped by: \($0.description)" } ?? ""))
        if let error = output.writeError { throw CLIError(error.description) }
    }
}
