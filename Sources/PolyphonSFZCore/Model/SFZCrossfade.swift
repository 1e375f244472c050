/// Crossfades between layers by key, velocity and controller: a region fades in over
/// `xfin_lo…xfin_hi` and out over `xfout_lo…xfout_hi`.
public struct SFZCrossfade: Hashable, Sendable {
    /// `xfin_lokey`/`xfin_hikey` (default 0…0: no fade in).
    public var keyIn = SFZRange<UInt8>(0, 0)
    /// `xfout_lokey`/`xfout_hikey` (default 127…127: no fade out).
    public var keyOut = SFZRange<UInt8>(127, 127)
    /// `xfin_lovel`/`xfin_hivel`.
    public var velocityIn = SFZRange<Float>(0, 0)
    /// `xfout_lovel`/`xfout_hivel`.
    public var velocityOut = SFZRange<Float>(127, 127)
    /// `xfin_loccN`/`xfin_hiccN`.
    public var controllersIn: [SFZControllerRange] = []
    /// `xfout_loccN`/`xfout_hiccN`.
    public var controllersOut: [SFZControllerRange] = []
    /// `xf_keycurve`.
    public var keyCurve: SFZCrossfadeCurve = .power
    /// `xf_velcurve`.
    public var velocityCurve: SFZCrossfadeCurve = .power
    /// `xf_cccurve`.
    public var controllerCurve: SFZCrossfadeCurve = .power

    /// No crossfades.
    public init() {}

    /// Defaults for a new `xfin_loccN`/`xfin_hiccN` pair.
    static let controllerInDefaults = SFZRange<Float>(0, 0)
    /// Defaults for a new `xfout_loccN`/`xfout_hiccN` pair.
    static let controllerOutDefaults = SFZRange<Float>(127, 127)
}

/// `xf_keycurve`, `xf_velcurve`, `xf_cccurve`.
public enum SFZCrossfadeCurve: String, Hashable, Sendable {
    /// Linear in amplitude.
    case gain
    /// Equal power (the default).
    case power
}
