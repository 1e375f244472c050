import Testing
@testable import PolyphonSynth

@Suite("Denormal mode")
struct DenormalModeTests {
    /// Half the smallest normal float, computed at run time (the optimiser cannot fold it).
    @inline(never)
    func halfSmallestNormal(_ scale: Float) -> Float { Float.leastNormalMagnitude * scale }

    @Test func renderingFlushesDenormalsAndRestoresTheCallersMode() {
        let outside = halfSmallestNormal(0.5)
        #expect(outside != 0 && outside.isSubnormal, "IEEE mode outside rendering")
        let inside = DenormalMode.flushingToZero { halfSmallestNormal(0.5) }
        if DenormalMode.explicitFilterFlush {
            #expect(inside == outside, "no hardware mode here: arithmetic is unchanged")
        } else {
            #expect(inside == 0, "flush-to-zero while rendering")
        }
        let after = halfSmallestNormal(0.5)
        #expect(after == outside, "the caller's mode is restored")
    }
}
