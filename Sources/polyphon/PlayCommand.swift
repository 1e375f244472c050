import ArgumentParser
import Atomics
import Foundation
import PolyphonAudio
import PolyphonLive
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSoundFont
import PolyphonSynth

/// `polyphon play FILE.mid …`: play MIDI files through the speakers with a transport.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play MIDI files through PulseAudio or ALSA.",
        discussion: """
            One status line updates in place: position / duration, bar:beat, voices, render load, \
            underruns. Keys: space pause/resume, ←/→ seek 5 s, ↑/↓ volume, l loop, n next file, \
            q quit. Ctrl-C stops cleanly (notes off, device drained, terminal restored).
            """)

    @Argument(help: "MIDI files, played one after another.")
    var files: [String]

    @OptionGroup var synthesis: SynthesisOptions

    @OptionGroup var output: LiveOutputOptions

    @Flag(help: "Loop each file forever.")
    var loop = false

    @Option(help: ArgumentHelp("Play the loop each file marks (controller 111, loopStart/loopEnd markers, EMIDI 116/117) N times in all, then the rest of the song; 0 repeats it until stopped.",
                               valueName: "N"))
    var loops: Int?

    @Option(help: "Tempo scale (2 = twice as fast).")
    var rate: Double = 1

    @Option(help: "Start position in seconds.")
    var start: Double = 0

    @OptionGroup var duration: DurationOption
    @Flag(name: .shortAndLong, help: "No status line.") var quiet = false

    func validate() throws {
        if !(rate > 0 && rate <= 16) { throw ValidationError("--rate must be > 0 and ≤ 16") }
        if start < 0 { throw ValidationError("--start must be ≥ 0") }
        if let loops, loops < 0 { throw ValidationError("--loops must be ≥ 0 (0: until stopped)") }
        if loop && loops != nil { throw ValidationError("--loop (the whole file) cannot be combined with --loops (the loop it marks)") }
    }

    func run() throws {
        let songs = try files.map { path -> (String, Song) in
            let file = try MIDIFile(contentsOfFile: path)
            try duration.check(file, path: path)
            if loops != nil, file.loop == nil {
                let reasons = file.findLoop().warnings.map(\.description)
                throw ValidationError("\(path): --loops needs a loop, and the file marks none (controller 111, loopStart/loopEnd markers or EMIDI controllers 116/117)"
                                      + (reasons.isEmpty ? "" : " (" + reasons.joined(separator: "; ") + ")"))
            }
            // What the reader repaired, once the file is known to play (a refusal is one line).
            for warning in file.warnings { note("polyphon: \(path): warning: \(warning)") }
            return (path, Song(midiFile: file))
        }
        let (soundBank, _) = try synthesis.bank.load(quiet: false)
        let output = try self.output.open(sampleRate: 44_100)
        let dev = output.output
        note(String(format: "polyphon: playing through %@ '%@' at %.0f Hz, %.1f ms periods",
                    dev.backendName, dev.deviceName, dev.sampleRate, 1000 * Double(dev.periodFrames) / dev.sampleRate))
        let config = synthesis.configuration

        let terminal = Terminal(interactive: !quiet && isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1)
        PlayInterrupt.install()
        defer { terminal.restore() }
        var quit = false
        for (path, song) in songs where !quit {
            let player = try MIDIPlayer(song: song, soundBank: soundBank, sampleRate: dev.sampleRate, configuration: config,
                                        threads: synthesis.threads ?? 1)
            player.rate = rate
            if loop { player.loop = PlayerLoop(beats: 0..<max(song.beat(atSeconds: song.duration), 1), count: .forever) }
            if let loops { player.numberOfLoops = loops == 0 ? -1 : loops - 1 }
            if start > 0 { player.currentPosition = start }
            let meter = RenderMeter()
            let finished = ManagedAtomic<Bool>(false)
            player.prepareToPlay()
            player.play { finished.store(true, ordering: .releasing) }
            do {
                try output.start { left, right, frames in
                    let t0 = DispatchTime.now().uptimeNanoseconds
                    player.render(left: left, right: right, frameCount: frames)
                    meter.apply(volume: left, right, frames)
                    meter.record(voices: player.synthesizer.activeVoiceCount,
                                 nanoseconds: DispatchTime.now().uptimeNanoseconds - t0,
                                 blockNanoseconds: UInt64(Double(frames) / dev.sampleRate * 1e9))
                }
            } catch {
                throw CLIError(error.description)
            }
            if !quiet { note("▶ \(path)") }
            var looping = loop
            while !finished.load(ordering: .acquiring) && !PlayInterrupt.received {
                _ = player.deliverCallbacks()
                if let key = terminal.readKey() {
                    switch key {
                    case .space: if player.isPlaying { player.pause() } else { player.play { finished.store(true, ordering: .releasing) } }
                    case .left: player.currentPosition = max(0, player.currentPosition - 5)
                    case .right: player.currentPosition = min(player.duration, player.currentPosition + 5)
                    case .up: meter.changeVolume(by: 1.122)   // +1 dB
                    case .down: meter.changeVolume(by: 1 / 1.122)
                    case .character("l"):
                        looping.toggle()
                        player.loop = looping ? PlayerLoop(beats: 0..<max(song.beat(atSeconds: song.duration), 1), count: .forever) : nil
                    case .character("n"): finished.store(true, ordering: .releasing)
                    case .character("q"): quit = true; finished.store(true, ordering: .releasing)
                    default: break
                    }
                }
                if terminal.interactive {
                    terminal.status(statusLine(player: player, song: song, meter: meter, output: output, looping: looping))
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
            if PlayInterrupt.received { quit = true }
            player.stop()
            output.stop(drain: !quit)
            terminal.status("")
            let s = output.statistics
            if !quiet {
                note(String(format: "■ %@: %d underruns, peak render load %.0f%%", path, s.underruns, 100 * s.peakLoad))
            }
        }
        dev.close()
    }

    func statusLine(player: MIDIPlayer, song: Song, meter: RenderMeter, output: LiveOutput, looping: Bool) -> String {
        func clock(_ t: Double) -> String { String(format: "%d:%04.1f", Int(t) / 60, t.truncatingRemainder(dividingBy: 60)) }
        let beat = player.currentBeat
        let sig = song.timeSignature(atBeat: beat)
        let beatsPerBar = Double(sig.numerator) * 4 / Double(1 << sig.denominatorExponent)
        let bar = Int(beat / max(beatsPerBar, 1e-9)) + 1
        let beatInBar = Int(beat.truncatingRemainder(dividingBy: max(beatsPerBar, 1e-9))) + 1
        return String(format: "%@ %@ / %@  bar %d:%d  voices %3d  load %3.0f%%  underruns %d  vol %+.0f dB%@",
                      player.isPlaying ? "▶" : "⏸", clock(player.currentPosition), clock(player.duration),
                      bar, beatInBar, meter.voices, meter.loadPercent, output.statistics.underruns,
                      meter.volumeDecibels, looping ? "  loop" : "")
    }
}

/// Counters shared between the render thread (writer) and the status line (reader).
final class RenderMeter: @unchecked Sendable {
    private let voiceCount = ManagedAtomic<Int>(0)
    private let loadPermille = ManagedAtomic<Int>(0)
    /// Volume factor as Float bits, changed by the keys and applied on the render thread.
    private let volumeBits = ManagedAtomic<UInt32>(Float(1).bitPattern)

    var voices: Int { voiceCount.load(ordering: .relaxed) }
    var loadPercent: Double { Double(loadPermille.load(ordering: .relaxed)) / 10 }
    var volumeDecibels: Double { 20 * log10(Double(Float(bitPattern: volumeBits.load(ordering: .relaxed)))) }

    func changeVolume(by factor: Float) {
        let v = Float(bitPattern: volumeBits.load(ordering: .relaxed)) * factor
        volumeBits.store(min(max(v, 0.01), 4).bitPattern, ordering: .relaxed)
    }

    @inline(__always)
    func apply(volume left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, _ n: Int) {
        let v = Float(bitPattern: volumeBits.load(ordering: .relaxed))
        guard v != 1 else { return }
        for i in 0..<n { left[i] *= v; right[i] *= v }
    }

    @inline(__always)
    func record(voices: Int, nanoseconds: UInt64, blockNanoseconds: UInt64) {
        voiceCount.store(voices, ordering: .relaxed)
        let now = Int(1000 * nanoseconds / max(blockNanoseconds, 1))
        let old = loadPermille.load(ordering: .relaxed)
        loadPermille.store((old * 7 + now) / 8, ordering: .relaxed)  // smoothed
    }
}

/// Ctrl-C and SIGTERM end playback cleanly instead of killing the process mid-buffer.
enum PlayInterrupt {
    nonisolated(unsafe) private static var flag: sig_atomic_t = 0
    static var received: Bool { flag != 0 }
    static func install() {
        signal(SIGINT) { _ in PlayInterrupt.flag = 1 }
        signal(SIGTERM) { _ in PlayInterrupt.flag = 1 }
    }
}

/// The terminal in raw, non-blocking mode for single keys, restored on exit.
final class Terminal {
    enum Key: Equatable { case space, left, right, up, down, character(Character) }
    let interactive: Bool
    private var saved = termios()
    private var pending: [UInt8] = []

    init(interactive: Bool) {
        self.interactive = interactive
        guard interactive else { return }
        tcgetattr(STDIN_FILENO, &saved)
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutablePointer(to: &raw.c_cc) { p in
            p.withMemoryRebound(to: cc_t.self, capacity: Int(NCCS)) { cc in
                cc[Int(VMIN)] = 0
                cc[Int(VTIME)] = 0
            }
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
    }

    func restore() {
        guard interactive else { return }
        var s = saved
        tcsetattr(STDIN_FILENO, TCSANOW, &s)
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    /// The next key pressed, if any (never blocks).
    func readKey() -> Key? {
        guard interactive else { return nil }
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = read(STDIN_FILENO, &buffer, buffer.count)
        if n > 0 { pending += buffer[0..<n] }
        guard let first = pending.first else { return nil }
        if first == 0x1B {
            guard pending.count >= 3 else {
                if pending.count == 1 && n <= 0 { pending.removeAll(); return .character("\u{1B}") }
                return nil
            }
            let code = pending[2]
            pending.removeFirst(3)
            switch code {
            case 0x41: return .up
            case 0x42: return .down
            case 0x43: return .right
            case 0x44: return .left
            default: return nil
            }
        }
        pending.removeFirst()
        if first == 0x20 { return .space }
        return .character(Character(UnicodeScalar(first)))
    }

    func status(_ line: String) {
        guard interactive else { return }
        FileHandle.standardError.write(Data("\r\(line)\u{1B}[K".utf8))
    }
}
