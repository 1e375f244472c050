import Foundation

/// Loop chunks appended to a finished WAV (`cue `, `smpl`) or AIFF (`MARK`, `INST`) file: the
/// chunks go after the audio, and the container's size field grows by what was added.
enum RIFFLoopChunks {
    static func appendToWAV(_ loop: AudioLoopPoints, path: String) throws {
        try append(path: path, container: "RIFF", form: "WAVE", bigEndian: false) { sampleRate in
            var cue = HeaderBytes()
            cue.uint32LE(2)
            for (id, frame) in [(UInt32(1), loop.start), (2, loop.end)] {
                cue.uint32LE(id)          // cue point ID
                cue.uint32LE(UInt32(truncatingIfNeeded: frame))  // play order position
                cue.fourCC("data")
                cue.uint32LE(0)           // chunk start
                cue.uint32LE(0)           // block start
                cue.uint32LE(UInt32(truncatingIfNeeded: frame))  // sample offset
            }
            var smpl = HeaderBytes()
            smpl.uint32LE(0)              // manufacturer
            smpl.uint32LE(0)              // product
            smpl.uint32LE(UInt32(min(1e9 / sampleRate, Double(UInt32.max)).rounded()))  // sample period, ns
            smpl.uint32LE(60)             // MIDI unity note
            smpl.uint32LE(0)              // pitch fraction
            smpl.uint32LE(0)              // SMPTE format
            smpl.uint32LE(0)              // SMPTE offset
            smpl.uint32LE(1)              // loops
            smpl.uint32LE(0)              // sampler data
            smpl.uint32LE(1)              // cue point ID
            smpl.uint32LE(0)              // type: forward
            smpl.uint32LE(UInt32(truncatingIfNeeded: loop.start))
            smpl.uint32LE(UInt32(truncatingIfNeeded: loop.end - 1))  // the loop's last frame, inclusive
            smpl.uint32LE(0)              // fraction
            smpl.uint32LE(0)              // play count: for ever
            return [("cue ", cue.bytes), ("smpl", smpl.bytes)]
        }
    }

    static func appendToAIFF(_ loop: AudioLoopPoints, path: String) throws {
        try append(path: path, container: "FORM", form: "AIFF", bigEndian: true) { _ in
            var mark = HeaderBytes()
            mark.uint16BE(2)
            for (id, frame, name) in [(UInt16(1), loop.start, "loop start"), (2, loop.end, "loop end")] {
                mark.uint16BE(id)
                mark.uint32BE(UInt32(truncatingIfNeeded: frame))
                // A Pascal string padded to an even length, count byte included.
                let text = Array(name.utf8)
                mark.raw([UInt8(text.count)] + text + ((text.count + 1) % 2 == 1 ? [0] : []))
            }
            var inst = HeaderBytes()
            inst.raw([60, 0, 0, 127, 1, 127])  // base note, detune, note range, velocity range
            inst.uint16BE(0)                   // gain
            inst.uint16BE(1)                   // sustain loop: forward
            inst.uint16BE(1)                   //   from marker 1
            inst.uint16BE(2)                   //   to marker 2
            inst.uint16BE(0)                   // release loop: none
            inst.uint16BE(0)
            inst.uint16BE(0)
            return [("MARK", mark.bytes), ("INST", inst.bytes)]
        }
    }

    /// Appends chunks (padded to even lengths) and updates the container size. `chunks` gets the
    /// file's sample rate (WAV: from `fmt `; AIFF: unused).
    private static func append(path: String, container: String, form: String, bigEndian: Bool,
                               chunks: (Double) -> [(String, [UInt8])]) throws {
        guard let handle = FileHandle(forUpdatingAtPath: path) else {
            throw AudioFileError.cannotOpen(path: path, reason: "cannot open to add loop points")
        }
        defer { try? handle.close() }
        do {
            let head = [UInt8](try handle.read(upToCount: 64) ?? Data())
            guard head.count >= 12, String(decoding: head[0..<4], as: UTF8.self) == container,
                  String(decoding: head[8..<12], as: UTF8.self) == form else {
                throw AudioFileError.malformed(path: path, chunk: container, offset: 0, reason: "not a \(form) file")
            }
            var sampleRate = 44100.0
            if !bigEndian, head.count >= 28, String(decoding: head[12..<16], as: UTF8.self) == "fmt " {
                sampleRate = Double(UInt32(head[24]) | UInt32(head[25]) << 8 | UInt32(head[26]) << 16 | UInt32(head[27]) << 24)
            }
            var end = try handle.seekToEnd()
            if end % 2 == 1 {
                try handle.write(contentsOf: [0])
                end += 1
            }
            var added = HeaderBytes()
            for (id, body) in chunks(sampleRate) {
                added.fourCC(id)
                if bigEndian { added.uint32BE(UInt32(body.count)) } else { added.uint32LE(UInt32(body.count)) }
                added.raw(body + (body.count % 2 == 1 ? [0] : []))
            }
            try handle.write(contentsOf: added.bytes)
            let size = end + UInt64(added.count) - 8
            guard size <= UInt64(UInt32.max) else {
                throw AudioFileError.invalidArgument(path: path, reason: "too large for loop chunks")
            }
            try handle.seek(toOffset: 4)
            try handle.write(contentsOf: bigEndian ? HeaderBytes.uint32BE(UInt32(size)) : HeaderBytes.uint32LE(UInt32(size)))
        } catch let error as AudioFileError {
            throw error
        } catch {
            throw AudioFileError.ioFailure(path: path, reason: error.localizedDescription)
        }
    }
}
