#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps denormal floats out of rendering.
///
/// A decaying IIR filter, envelope or reverb tail drifts into denormal numbers, which x86 cores
/// compute tens of times slower. On x86-64 rendering runs with the SSE unit's flush-to-zero and
/// denormals-are-zero bits set (as FluidSynth's and most audio engines' render threads do), and
/// the caller's floating-point environment is restored afterwards, so code around the
/// synthesizer is unaffected. Elsewhere (ARM cores compute denormals at full speed) the filters
/// flush their own state at every control point instead (``explicitFilterFlush``).
enum DenormalMode {
    #if arch(x86_64) && (canImport(Glibc) || canImport(Darwin))
    /// True where the hardware mode is not set, so each voice's filter flushes its state itself.
    static let explicitFilterFlush = false

    /// Runs `body` with denormals flushed to zero, then restores the caller's environment.
    /// (Two `fenv` calls per render call: the MXCSR intrinsics are not callable from Swift.)
    @inline(__always)
    static func flushingToZero<R>(_ body: () -> R) -> R {
        var saved = fenv_t()
        fegetenv(&saved)
        var flushing = saved
        // FTZ (bit 15): results that would be denormal are 0. DAZ (bit 6): denormal inputs read as 0.
        flushing.__mxcsr |= 0x8040
        fesetenv(&flushing)
        defer { fesetenv(&saved) }
        return body()
    }
    #else
    static let explicitFilterFlush = true

    @inline(__always)
    static func flushingToZero<R>(_ body: () -> R) -> R { body() }
    #endif
}
