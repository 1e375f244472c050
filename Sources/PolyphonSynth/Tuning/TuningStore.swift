/// The key tables a synthesizer's channels can play in, reserved when it is created so a
/// tuning message arriving while it renders allocates nothing.
///
/// Each table holds, for every key, how many cents it lies from equal temperament. There are
/// three kinds: tuning programs, addressed by bank and program as the MIDI Tuning Standard
/// numbers them (a bounded number of them: ``SynthesizerConfiguration/tuningProgramCapacity``),
/// one table per channel for that channel's own scale/octave tuning, and the tuning melodic
/// channels play when nothing selects another (``SynthesizerConfiguration/tuning``).
final class TuningStore {
    /// Tuning programs the store can hold.
    let programCapacity: Int
    let channelCount: Int
    /// Every table, 128 floats each: programs, then one per channel, then the default, then
    /// equal temperament (never written).
    private let deviations: UnsafeMutablePointer<Float>
    /// Each program table's 16-character name (ASCII), for bulk dumps.
    private let names: UnsafeMutablePointer<UInt8>
    /// Which bank and program each program table holds (`bank << 7 | program`), −1 when free.
    private let owners: UnsafeMutablePointer<Int32>
    /// The tuning of melodic channels that select none, if any.
    let defaultTable: TuningTable?
    /// Twelve-tone equal temperament, for a channel that selects it over ``defaultTable``.
    let equalTemperament: TuningTable

    static let nameLength = 16

    init(programCapacity: Int, channelCount: Int, defaultTuning: Tuning?) {
        self.programCapacity = programCapacity
        self.channelCount = channelCount
        let tables = programCapacity + channelCount + 2
        deviations = .allocate(capacity: tables * 128)
        deviations.initialize(repeating: 0, count: tables * 128)
        names = .allocate(capacity: max(1, programCapacity) * Self.nameLength)
        names.initialize(repeating: 0x20, count: max(1, programCapacity) * Self.nameLength)
        owners = .allocate(capacity: max(1, programCapacity))
        owners.initialize(repeating: -1, count: max(1, programCapacity))
        equalTemperament = TuningTable(slot: tables - 1, deviations: deviations + (tables - 1) * 128)
        if let defaultTuning, !defaultTuning.isEqualTemperament {
            let table = TuningTable(slot: tables - 2, deviations: deviations + (tables - 2) * 128)
            table.set(defaultTuning)
            defaultTable = table
        } else {
            defaultTable = nil
        }
    }

    deinit {
        deviations.deallocate()
        names.deallocate()
        owners.deallocate()
    }

    // MARK: - Tuning programs

    /// The table of tuning program `program` in `bank`, if one was defined.
    func program(_ program: Int, bank: Int) -> TuningTable? {
        let owner = Int32(bank << 7 | program)
        for slot in 0..<programCapacity where owners[slot] == owner { return table(slot) }
        return nil
    }

    /// The table of a tuning program, made (in equal temperament) when it does not exist yet;
    /// nil when every table is taken.
    func programCreating(_ program: Int, bank: Int) -> TuningTable? {
        if let existing = self.program(program, bank: bank) { return existing }
        for slot in 0..<programCapacity where owners[slot] < 0 {
            owners[slot] = Int32(bank << 7 | program)
            let table = table(slot)
            table.setEqualTemperament()
            setName(nil, slot: slot)
            return table
        }
        return nil
    }

    /// The bank and program a table holds, when it is a program's.
    func owner(of table: TuningTable) -> (bank: Int, program: Int)? {
        guard table.slot < programCapacity, owners[table.slot] >= 0 else { return nil }
        let owner = Int(owners[table.slot])
        return (owner >> 7, owner & 0x7F)
    }

    /// Sets a program table's name from up to 16 ASCII bytes (spaces when nil).
    func setName(_ bytes: UnsafeBufferPointer<UInt8>?, slot: Int) {
        guard slot < programCapacity else { return }
        let name = names + slot * Self.nameLength
        for i in 0..<Self.nameLength {
            let byte = bytes.flatMap { i < $0.count ? $0[i] : nil } ?? 0x20
            name[i] = byte < 0x20 || byte > 0x7E ? 0x20 : byte
        }
    }

    /// A program table's name: 16 ASCII bytes.
    func name(slot: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: names + max(0, min(slot, programCapacity - 1)) * Self.nameLength, count: Self.nameLength)
    }

    // MARK: - Channels' own tables

    /// The table holding a channel's own scale/octave tuning.
    func channelTable(_ channel: Int) -> TuningTable {
        let slot = programCapacity + channel
        return TuningTable(slot: slot, deviations: deviations + slot * 128)
    }

    private func table(_ slot: Int) -> TuningTable {
        TuningTable(slot: slot, deviations: deviations + slot * 128)
    }
}

/// One key table of a ``TuningStore``: a view of its memory, cheap to copy; its owner outlives it.
struct TuningTable: Equatable {
    /// Which table of the store.
    let slot: Int
    /// Cents from equal temperament, one per key.
    let deviations: UnsafeMutablePointer<Float>

    static func == (a: TuningTable, b: TuningTable) -> Bool { a.slot == b.slot }

    /// How many cents `key` lies from its equal-tempered pitch.
    @inline(__always)
    func deviation(ofKey key: Int) -> Float { deviations[min(max(key, 0), 127)] }

    /// Sets `key` (0…127) to a pitch in cents above 8.176 Hz.
    func setPitch(_ cents: Double, ofKey key: Int) {
        let limit = Tuning.centsLimit
        deviations[key] = Float(min(max(cents, -limit), limit) - 100 * Double(key))
    }

    /// Every key moved by the offset of its pitch class (C first), in cents.
    func setPitchClassOffsets(_ offsets: SIMD16<Double>) {
        for key in 0..<128 { deviations[key] = Float(offsets[key % 12]) }
    }

    func set(_ tuning: Tuning) {
        for key in 0..<128 { setPitch(tuning.keyCents[key], ofKey: key) }
    }

    func setEqualTemperament() { deviations.update(repeating: 0, count: 128) }

    /// The table as a ``Tuning``.
    func tuning(name: String) -> Tuning {
        Tuning(checkedKeyCents: (0..<128).map { 100 * Double($0) + Double(deviations[$0]) }, name: name)
    }
}
