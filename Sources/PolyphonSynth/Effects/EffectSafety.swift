// Guards that keep the effects' recursive state finite, normal and quiet.

/// Values smaller than this are treated as silence inside the effects' feedback paths.
///
/// A decaying recursive filter approaches zero forever and, below about 1.2e-38, enters the
/// denormal range where x86 and many ARM cores run 10–100× slower. Flushing at 1e-20
/// (−400 dBFS, far below any audible level or any 24-bit output step) keeps every state out of
/// that range and lets a tail reach *exactly* zero, so a silent bus costs nothing to mix and
/// looks silent to whoever checks for it.
let effectSilenceThreshold: Float = 1e-20

extension Float {
    /// `self`, or 0 when it is too small to matter (see ``effectSilenceThreshold``).
    @inline(__always) var effectFlushed: Float {
        abs(self) < effectSilenceThreshold ? 0 : self
    }
}

extension Float {
    /// A send-bus sample made safe for a feedback path: NaN becomes 0 (one NaN would otherwise
    /// poison the tail for good), magnitudes are limited to 10⁶ (+120 dB over full scale: no
    /// real mix gets there, and it keeps every product finite), tiny values become 0.
    @inline(__always) var effectSanitized: Float {
        guard !isNaN else { return 0 }
        return Swift.min(Swift.max(self, -1e6), 1e6).effectFlushed
    }
}

extension SIMD8 where Scalar == Float {
    /// Each lane, or 0 when it is too small to matter (see ``effectSilenceThreshold``).
    @inline(__always) var effectFlushed: SIMD8<Float> {
        let t = SIMD8<Float>(repeating: effectSilenceThreshold)
        return replacing(with: 0, where: (self .< t) .& (self .> -t))
    }
}

extension Double {
    /// Clamps an effect parameter into `range`; NaN (which compares false with everything, so
    /// would slip through min/max) becomes `fallback`.
    func effectClamped(to range: ClosedRange<Double>, default fallback: Double) -> Double {
        guard !isNaN else { return fallback }
        return Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
