import Foundation
import PolyphonMIDI
import PolyphonSynth

/// The tuning a MIDI file asks for, as `polyphon info` lists it: every MIDI Tuning Standard
/// message (readable or not) and every tuning program or bank selected with RPN 3 or RPN 4.
///
/// JSON keys (one object per message, in track then tick order): `track` (0-based), `tick`,
/// `seconds`, `kind` (`"dumpRequest"`, `"keyDump"`, `"scaleOctaveDump"`, `"noteChange"`,
/// `"scaleOctave"`, `"selectProgram"`, `"selectBank"` or `"malformed"`), `summary` (one line of
/// text), and where they apply `realTime` (bool), `deviceID`, `bank`, `program`, `channels`
/// (array of channel numbers 1…16), `keys` (how many keys it retunes), `error` (why a
/// malformed message cannot be read).
struct TuningMessageReport: Codable, Sendable, Equatable {
    var track: Int
    var tick: Int
    var seconds: Double
    var kind: String
    var summary: String
    var realTime: Bool?
    var deviceID: Int?
    var bank: Int?
    var program: Int?
    var channels: [Int]?
    var keys: Int?
    var error: String?

    /// Every tuning message and RPN 3/4 selection in the file.
    static func all(in file: MIDIFile) -> [TuningMessageReport] {
        let map = file.tempoMap()
        var reports: [TuningMessageReport] = []
        for (trackIndex, track) in file.tracks.enumerated() {
            // The RPN each channel has selected (CC101 / CC100), in this track's order.
            var rpn = [Int](repeating: -1, count: 16)
            for event in track.events {
                let seconds = map.seconds(atTick: event.tick)
                func report(_ kind: String, _ summary: String) -> TuningMessageReport {
                    TuningMessageReport(track: trackIndex, tick: event.tick, seconds: seconds, kind: kind, summary: summary)
                }
                switch event.message {
                case .controlChange(let channel, let controller, let value):
                    let c = Int(channel & 0x0F)
                    switch controller {
                    case 101: rpn[c] = (max(rpn[c], 0) & 0x7F) | Int(value) << 7
                    case 100: rpn[c] = (max(rpn[c], 0) & ~0x7F) | Int(value)
                    case 98, 99: rpn[c] = -1
                    case 6 where rpn[c] == 3 || rpn[c] == 4:
                        let isProgram = rpn[c] == 3
                        var r = report(isProgram ? "selectProgram" : "selectBank",
                                       "RPN \(rpn[c]): tuning \(isProgram ? "program" : "bank") \(value) on channel \(c + 1)")
                        if isProgram { r.program = Int(value) } else { r.bank = Int(value) }
                        r.channels = [c + 1]
                        reports.append(r)
                    default: break
                    }
                case .systemExclusive(let body):
                    do {
                        guard let message = try MIDITuningMessage(body) else { continue }
                        reports.append(describe(message, report))
                    } catch {
                        var r = report("malformed", "unreadable tuning message: \(error)")
                        r.error = "\(error)"
                        reports.append(r)
                    }
                default:
                    break
                }
            }
        }
        return reports
    }

    private static func describe(_ m: MIDITuningMessage,
                                 _ report: (String, String) -> TuningMessageReport) -> TuningMessageReport {
        let area = m.isRealTime ? "real-time" : "non-real-time"
        let device = m.deviceID == MIDITuningMessage.allDevices ? "" : ", device \(m.deviceID)"
        func program(_ bank: UInt8?, _ program: UInt8) -> String {
            bank.map { "bank \($0) program \(program)" } ?? "program \(program)"
        }
        func offsets() -> String {
            let names = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]
            return (0..<12).map { "\(names[$0]) \(String(format: "%+.2f", m.pitchClassOffsets[$0]))" }.joined(separator: " ")
        }
        let checksum = m.checksumMatches == false ? " — checksum does not match (applied anyway)" : ""
        var r: TuningMessageReport
        switch m.form {
        case .dumpRequest(let bank, let p):
            r = report("dumpRequest", "bulk dump request for \(program(bank, p))\(device)")
            r.bank = bank.map(Int.init); r.program = Int(p)
        case .keyDump(let bank, let p):
            r = report("keyDump", "bulk tuning dump \"\(m.name)\" for \(program(bank, p)), \(m.changedKeyCount) keys, \(area)\(device)\(checksum)")
            r.bank = Int(bank ?? 0); r.program = Int(p); r.keys = m.changedKeyCount
        case .scaleOctaveDump(let bank, let p):
            r = report("scaleOctaveDump", "scale/octave dump \"\(m.name)\" for \(program(bank, p)) (\(m.isTwoByteForm ? 2 : 1)-byte): \(offsets()) cents\(device)\(checksum)")
            r.bank = Int(bank); r.program = Int(p)
        case .noteChange(let bank, let p):
            r = report("noteChange", "single-note tuning of \(program(bank, p)), \(m.changedKeyCount) key\(m.changedKeyCount == 1 ? "" : "s"), \(area)\(device)")
            r.bank = Int(bank ?? 0); r.program = Int(p); r.keys = m.changedKeyCount
        case .scaleOctave:
            let channels = m.channels.map { $0 + 1 }
            r = report("scaleOctave", "scale/octave tuning (\(m.isTwoByteForm ? 2 : 1)-byte, \(area)) for channel\(channels.count == 1 ? "" : "s") \(channels.map(String.init).joined(separator: ",")): \(offsets()) cents\(device)")
            r.channels = channels
        }
        r.realTime = m.isRealTime
        r.deviceID = Int(m.deviceID)
        return r
    }

    /// `track 1, tick 480 (0.50 s): …`
    var text: String { "track \(track), tick \(tick) (\(String(format: "%.2f", seconds)) s): \(summary)" }
}
