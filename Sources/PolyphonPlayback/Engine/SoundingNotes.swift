import PolyphonMIDI
import PolyphonSynth

/// The notes ``PlaybackEngine`` has started and still has to end, in start order.
///
/// A song's notes carry their note-off frame (``Timeline/NoteEnd``): the engine sends it
/// itself, so an edit can neither cut nor hang a note. A file's notes end with the file's own
/// note-offs; they are counted per key only while a loop may jump, so the jump can release
/// what is still held. Storage is allocated up front; nothing here allocates while rendering.
final class SoundingNotes {
    /// A song note the engine started.
    struct Note {
        var channel: UInt8
        var port: Int
        var key: UInt8
        var releaseVelocity: UInt8
        /// Timeline frame of the note-off.
        var endFrame: Double
        var track: Int
    }

    private let notes: UnsafeMutablePointer<Note>
    let capacity: Int
    private(set) var count = 0
    /// Per port, channel and key: note-ons of a file's notes not yet matched by a note-off.
    private let held: UnsafeMutablePointer<UInt8>
    private let heldSize: Int
    private var heldCount = 0

    init(capacity: Int, channelCount: Int) {
        self.capacity = capacity
        notes = .allocate(capacity: capacity)
        heldSize = max(16, channelCount) * 128
        held = .allocate(capacity: heldSize)
        held.initialize(repeating: 0, count: heldSize)
    }

    deinit {
        notes.deallocate()
        held.deallocate()
    }

    subscript(index: Int) -> Note {
        get { notes[index] }
        set { notes[index] = newValue }
    }

    var isFull: Bool { count == capacity }

    func append(_ note: Note) {
        notes[count] = note
        count += 1
    }

    /// Removes a note, keeping the others in start order (simultaneous note-offs go out in the
    /// order the notes began).
    func remove(at index: Int) {
        let tail = count - index - 1
        if tail > 0 { (notes + index).update(from: notes + index + 1, count: tail) }
        count -= 1
    }

    func removeAll() { count = 0 }

    /// Counts a file's note-on or note-off.
    @inline(__always)
    func track(_ message: MIDIMessage, port: Int) {
        switch message {
        case .noteOn(let c, let key, let velocity):
            let i = slot(port, c, key)
            guard i < heldSize else { return }
            if velocity == 0 {
                if held[i] > 0 { held[i] -= 1; heldCount -= 1 }
            } else if held[i] < 255 {
                held[i] += 1; heldCount += 1
            }
        case .noteOff(let c, let key, _):
            let i = slot(port, c, key)
            if i < heldSize && held[i] > 0 { held[i] -= 1; heldCount -= 1 }
        default:
            break
        }
    }

    /// Sends a note-off now for every key a file's notes still hold, and forgets them.
    func releaseHeld(on synthesizer: Synthesizer) {
        guard heldCount > 0 else { return }
        for i in 0..<heldSize where held[i] > 0 {
            let channel = i / 128
            for _ in 0..<held[i] {
                synthesizer.send(.noteOff(channel: UInt8(channel % 16), note: UInt8(i % 128), velocity: 0), port: channel / 16)
            }
            held[i] = 0
        }
        heldCount = 0
    }

    func forgetHeld() {
        guard heldCount > 0 else { return }
        held.update(repeating: 0, count: heldSize)
        heldCount = 0
    }

    @inline(__always)
    private func slot(_ port: Int, _ channel: UInt8, _ key: UInt8) -> Int {
        (port * 16 + Int(channel & 0x0F)) * 128 + Int(key & 0x7F)
    }
}
