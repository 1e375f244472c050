import Testing
@testable import PolyphonSoundFont
@testable import PolyphonSoundFontCore

/// Damaged variants of a valid bank: each must throw a `SoundFontError` or load (maybe with
/// warnings) — never trap, hang or read out of bounds. What loads must also resolve its regions
/// and write out to a file that loads again.
@Suite struct MutationTests {
    static let valid = TestBanks.rich(twentyFourBit: true).serialized()

    enum Outcome { case loaded, rejected }

    func check(_ bytes: [UInt8], _ label: String) -> Outcome {
        do {
            let font = try SoundFont(bytes: bytes, name: label)
            var regionCount = 0
            for i in font.presets.indices {
                for region in font.regions(forPresetAt: i) {
                    #expect(font.samples.indices.contains(region.sampleIndex), "\(label)")
                    #expect(region.keyRange.upperBound <= 127 && region.velocityRange.upperBound <= 127, "\(label)")
                    regionCount += 1
                }
            }
            let rewritten = try SoundFont(bytes: font.serialized(), name: label + " rewritten")
            #expect(rewritten.presets.count == font.presets.count, "\(label)")
            #expect(rewritten.samples == font.samples, "\(label)")
            return .loaded
        } catch is SoundFontError {
            return .rejected
        } catch {
            Issue.record("\(label): unexpected error type \(error)")
            return .rejected
        }
    }

    @Test func everyTruncationIsHandled() {
        var rejected = 0
        for length in 0..<Self.valid.count {
            if check(Array(Self.valid.prefix(length)), "truncated to \(length)") == .rejected { rejected += 1 }
        }
        // Cutting into the chunk structure must be reported, not silently accepted: only the
        // final pad byte may go missing quietly.
        #expect(rejected >= Self.valid.count - 2)
    }

    @Test func bitFlipsAreHandled() {
        var rng = SplitMix64(seed: 0x5F2_0001)
        var outcomes = [Outcome: Int]()
        for variant in 0..<1500 {
            var bytes = Self.valid
            let flips = Int.random(in: 1...4, using: &rng)
            for _ in 0..<flips {
                let position = Int.random(in: 0..<bytes.count, using: &rng)
                bytes[position] ^= UInt8(1) << UInt8.random(in: 0...7, using: &rng)
            }
            outcomes[check(bytes, "bit-flip variant \(variant)"), default: 0] += 1
        }
        // Both outcomes occur: flips in sample data load, flips in sizes and indexes are caught.
        #expect(outcomes[.loaded, default: 0] > 100)
        #expect(outcomes[.rejected, default: 0] > 100)
    }

    @Test func fieldOverwritesInTheTablesAreHandled() throws {
        // Bit flips rarely produce extreme values; overwrite 16- and 32-bit fields of the pdta
        // tables with 0, 0xFFFF and random words instead.
        let pdta = try TestBanks.list("pdta", in: Self.valid)
        var rng = SplitMix64(seed: 0xB00C)
        let extremes: [UInt32] = [0, 1, 0xFFFF, 0x7FFF, 0x8000, 0xFFFF_FFFF]
        for variant in 0..<800 {
            var bytes = Self.valid
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let position = Int.random(in: pdta.dataOffset..<(pdta.dataRange.upperBound - 4), using: &rng)
                let value = Bool.random(using: &rng) ? extremes.randomElement(using: &rng)! : UInt32.random(in: 0...UInt32.max, using: &rng)
                if Bool.random(using: &rng) {
                    TestBanks.putU16(UInt16(truncatingIfNeeded: value), at: position, in: &bytes)
                } else {
                    TestBanks.putU32(value, at: position, in: &bytes)
                }
            }
            _ = check(bytes, "field variant \(variant)")
        }
    }

    @Test func headerChunkSizesAreHandled() throws {
        // Every chunk header's size field set to values around its true size and to extremes.
        var offsets: [Int] = [4]
        for list in try TestBanks.chunks(Self.valid, in: 12..<Self.valid.count) {
            offsets.append(list.offset + 4)
            offsets += try TestBanks.chunks(Self.valid, in: (list.dataOffset + 4)..<list.dataRange.upperBound).map { $0.offset + 4 }
        }
        for offset in offsets {
            let size = Int(Self.valid[offset]) | Int(Self.valid[offset + 1]) << 8 | Int(Self.valid[offset + 2]) << 16
            for candidate in [0, 1, 2, 3, 4, size - 2, size - 1, size + 1, size + 2, 0x7FFF_FFFF, 0xFFFF_FFFF] {
                var bytes = Self.valid
                TestBanks.putU32(UInt32(truncatingIfNeeded: max(0, candidate)), at: offset, in: &bytes)
                _ = check(bytes, "size at \(offset) = \(candidate)")
            }
        }
    }
}
