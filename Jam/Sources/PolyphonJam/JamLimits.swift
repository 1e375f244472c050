/// What the jam server accepts, so that no request can tie it up or fill its memory or disk:
/// each bad or oversized request gets a 4xx with a one-line reason and the server goes on.
struct JamLimits: Sendable {
    /// Largest request body (a take as JSON), bytes.
    var maxRequestBytes = 8 << 20
    /// Events in one take, all layers together.
    var maxEvents = 200_000
    /// Layers in one take.
    var maxLayers = 16
    /// Bytes in one MIDI message (SysEx included).
    var maxMessageBytes = 256
    /// A take's length: no event after this, seconds.
    var maxSeconds: Double = 30 * 60
    /// Wall seconds one audio export may render before it is abandoned (503).
    var maxRenderSeconds: Double = 120
    /// Seconds of tail after a take's last event in an audio export.
    var maxTailSeconds: Double = 10
    /// Audio exports rendering at once; another one waits its turn.
    var concurrentRenders = 2
}
