/// Tunings: the MIDI Tuning Standard's tuning programs, the channels that select them, the
/// messages that define them and the dumps that answer requests.
///
/// A channel plays in equal temperament (or ``SynthesizerConfiguration/tuning`` when melodic)
/// until it selects a tuning program — with RPN 4 (tuning bank) and RPN 3 (tuning program),
/// or ``selectTuning(program:bank:onChannel:atFrame:)`` — or a scale/octave tuning message names
/// it. A note takes the tuning in force when it starts. Changing a program retunes the notes
/// sounding on channels that play it when the change is real-time (real-time SysEx,
/// `retuningSoundingNotes`, selecting a program), and only later notes otherwise. GM, GS and XG
/// resets return every channel to its starting tuning; the programs stay defined.
extension Synthesizer {
    // MARK: - Tuning programs

    /// Defines tuning program `program` of tuning bank `bank` (each 0…127): channels that select
    /// it play in `tuning`. Takes effect at once, before any event still waiting. Notes already
    /// sounding on channels that play the program keep their pitch unless
    /// `retuningSoundingNotes`. Throws when every one of the
    /// ``SynthesizerConfiguration/tuningProgramCapacity`` programs is taken.
    public func setTuning(_ tuning: Tuning, program: UInt8, bank: UInt8 = 0,
                          retuningSoundingNotes: Bool = false) throws(SynthesizerError) {
        guard let table = tunings.programCreating(Int(program & 0x7F), bank: Int(bank & 0x7F)) else {
            throw SynthesizerError.tuningProgramsExhausted(capacity: tunings.programCapacity)
        }
        table.set(tuning)
        let name = Array(tuning.name.utf8.prefix(TuningStore.nameLength))
        name.withUnsafeBufferPointer { tunings.setName($0, slot: table.slot) }
        programChanged(table, realTime: retuningSoundingNotes)
    }

    /// Tuning program `program` of `bank`, if one is defined.
    public func tuning(program: UInt8, bank: UInt8 = 0) -> Tuning? {
        guard let table = tunings.program(Int(program & 0x7F), bank: Int(bank & 0x7F)) else { return nil }
        return table.tuning(name: tuningName(table))
    }

    /// Makes a channel play in tuning program `program` of `bank` (as RPN 4 then RPN 3 would,
    /// without touching the channel's RPN state), notes sounding on it included. A program not
    /// defined yet plays in equal temperament until it is.
    public func selectTuning(program: UInt8, bank: UInt8 = 0, onChannel channel: UInt8, atFrame offset: Int = 0) {
        schedule(.selectTuning(channel: channel, bank: bank & 0x7F, program: program & 0x7F), atFrame: offset)
    }

    /// Returns a channel to twelve-tone equal temperament (also on a melodic channel that would
    /// otherwise play ``SynthesizerConfiguration/tuning``), notes sounding on it included.
    public func selectEqualTemperament(onChannel channel: UInt8, atFrame offset: Int = 0) {
        schedule(.equalTemperament(channel: channel), atFrame: offset)
    }

    /// The tuning a note started now on `channel` would play in.
    public func tuning(onChannel channel: UInt8) -> Tuning {
        guard Int(channel) < channels.count, let table = channels[Int(channel)].activeTuning else {
            return .equalTemperament
        }
        return table.tuning(name: tuningName(table))
    }

    // MARK: - Replies

    /// Hands every system-exclusive message the synthesizer has to send back — bulk tuning
    /// dumps answering dump requests — to `body`, oldest first (`F0` … `F7`, valid only inside
    /// the call), then forgets them. Call it after rendering, from the thread that renders, and
    /// send the bytes to a MIDI output if there is one. Allocates nothing.
    public func takeSystemExclusiveReplies(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        replies.drain(body)
    }

    /// Replies dropped because earlier ones were not taken (room is kept for eight dumps).
    public var droppedSystemExclusiveReplies: Int { replies.dropped }

    // MARK: - Applying tuning messages

    /// Applies a MIDI Tuning Standard message (on the render thread: allocates nothing).
    /// Returns false when the bytes are not one; malformed ones and ones addressed to another
    /// device are ignored, as FluidSynth ignores them (`polyphon info` reports them).
    func applyTuningMessage(_ body: UnsafeBufferPointer<UInt8>) -> Bool {
        let message: MIDITuningMessage
        do {
            guard let read = try MIDITuningMessage(body) else { return false }
            message = read
        } catch {
            return true
        }
        guard message.deviceID == MIDITuningMessage.allDevices || message.deviceID == configuration.deviceID else {
            return true
        }
        switch message.form {
        case .dumpRequest(let bank, let program):
            answerDumpRequest(bank: bank, program: program)
        case .keyDump(let bank, let program), .noteChange(let bank, let program):
            guard let table = tunings.programCreating(Int(program), bank: Int(bank ?? 0)) else { return true }
            message.forEachChangedKey { key, cents in table.setPitch(cents, ofKey: key) }
            if case .keyDump = message.form { setName(message.nameBytes, of: table) }
            programChanged(table, realTime: message.isRealTime)
        case .scaleOctaveDump(let bank, let program):
            guard let table = tunings.programCreating(Int(program), bank: Int(bank)) else { return true }
            table.setPitchClassOffsets(message.pitchClassOffsets)
            setName(message.nameBytes, of: table)
            programChanged(table, realTime: message.isRealTime)
        case .scaleOctave(let bits):
            for c in 0..<min(16, channels.count) where bits >> UInt16(c) & 1 != 0 {
                let ch = channels[c]
                let table = tunings.channelTable(c)
                table.setPitchClassOffsets(message.pitchClassOffsets)
                ch.tuning = table
                if message.isRealTime { voicePool.retune(ch, context) }
            }
        }
        return true
    }

    /// A channel selects a table (nil: the default for its kind) and its sounding notes follow.
    func selectTuning(on channel: Channel, table: TuningTable?) {
        channel.tuning = table
        voicePool.retune(channel, context)
    }

    /// A program's table changed: in real time, the notes of channels playing it follow.
    private func programChanged(_ table: TuningTable, realTime: Bool) {
        guard realTime else { return }
        for ch in channels where ch.tuning == table { voicePool.retune(ch, context) }
    }

    /// Queues a bulk dump of the program asked for (nothing when it is not defined, as
    /// FluidSynth answers): form `01` for a request without a bank, `04` with one.
    private func answerDumpRequest(bank: UInt8?, program: UInt8) {
        guard let table = tunings.program(Int(program), bank: Int(bank ?? 0)) else { return }
        let deviceID = configuration.deviceID
        let name = tunings.name(slot: table.slot)
        replies.append(maximumLength: MIDITuningDump.byteCount(hasBank: bank != nil)) { out in
            MIDITuningDump.writeKeyDump(program: program, bank: bank, deviceID: deviceID, name: name,
                                        pitch: { 100 * Double($0) + Double(table.deviation(ofKey: $0)) }, into: out)
        }
    }

    private func setName(_ bytes: SIMD16<UInt8>, of table: TuningTable) {
        withUnsafeBytes(of: bytes) { raw in
            tunings.setName(raw.bindMemory(to: UInt8.self), slot: table.slot)
        }
    }

    private func tuningName(_ table: TuningTable) -> String {
        guard table.slot < tunings.programCapacity else { return "" }
        var bytes = Array(tunings.name(slot: table.slot))
        while let last = bytes.last, last == 0x20 { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
