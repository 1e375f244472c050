import Foundation
import PolyphonMIDI
import PolyphonPlayback
import PolyphonSynth
import Testing

/// A render stopped from outside or by its deadline stops at a block boundary, having delivered
/// a prefix of the full render.
@Suite(.timeLimit(.minutes(10))) struct RenderCancellationTests {
    /// One note held for an hour: far more than the tests let run.
    static let longSong = Fixtures.song([(0, 69, 0, 960 * 3600)])

    static func options() -> RenderOptions {
        var o = RenderOptions()
        o.synthesizer.reverbEnabled = false
        o.synthesizer.chorusEnabled = false
        return o
    }

    @Test func cancelStopsAtTheNextBlockWithAPrefixOfTheRender() throws {
        let bank = Fixtures.sineBank()
        let cancellation = RenderCancellation()
        let capture = RenderCapture()
        var blocks = 0
        let renderer = OfflineRenderer(soundBank: bank, options: Self.options(), cancellation: cancellation)
        #expect {
            try renderer.render(Self.longSong, into: { l, r, n in
                try capture.sink(l, r, n)
                blocks += 1
                if blocks == 10 { cancellation.cancel() }
            })
        } throws: { error in
            guard let e = error as? RenderCancelledError else { return false }
            return e.timeLimit == nil && e.description.hasPrefix("cancelled after")
        }
        #expect(blocks == 10)
        #expect(capture.left.count == 10 * Self.options().blockSize)
        // The same frames as an uncancelled render's start.
        let full = RenderCapture()
        var o = Self.options()
        o.endAtLastEvent = true
        _ = try OfflineRenderer(soundBank: bank, options: o).render(Fixtures.song([(0, 69, 0, 960 * 2)]), into: full.sink)
        #expect(Array(full.left.prefix(capture.left.count)) == capture.left)
    }

    @Test func aDeadlineStopsALongRenderSoon() throws {
        let renderer = OfflineRenderer(soundBank: Fixtures.sineBank(), options: Self.options(),
                                       cancellation: RenderCancellation(timeLimit: 0.2))
        let started = Date()
        #expect(throws: RenderCancelledError.self) {
            try renderer.render(Self.longSong, into: { _, _, _ in })
        }
        #expect(Date().timeIntervalSince(started) < 5)
    }
}
