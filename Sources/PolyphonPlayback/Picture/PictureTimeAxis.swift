/// The time axis of a picture: where its ticks go and how they read.
///
/// The step is the shortest of 0.1 s, 0.2 s, 0.5 s, 1 s, 2 s, 5 s, 10 s, 15 s, 30 s, 1, 2, 5,
/// 10, 15 and 30 minutes, 1 and 2 hours that leaves room between two ticks for a label and a
/// gap, so a 3-second jingle and a 4-hour recording both get some 8–16 labelled ticks. Labels
/// are m:ss (0:00, 1:30, 12:00), h:mm:ss from an hour on, with tenths when the step is under a
/// second (0:01.5).
public struct PictureTimeAxis: Sendable, Hashable {
    /// Seconds the axis spans, from 0.
    public let span: Double
    /// Seconds from one tick to the next.
    public let step: Double

    static let steps: [Double] = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200]

    /// The axis for `duration` seconds over `pixels`, ticks at least `minimumSpacing` pixels
    /// apart. A duration under a second spans one second.
    public init(duration: Double, pixels: Int, minimumSpacing: Int = 100) {
        span = max(1, duration.isFinite ? duration : 1)
        let fewest = span * Double(minimumSpacing) / Double(max(1, pixels))
        step = Self.steps.first { $0 >= fewest } ?? (fewest / 3600).rounded(.up) * 3600
    }

    /// The ticks' times, 0 first, none past the span.
    public var ticks: [Double] {
        let count = Int((span / step + 1e-9).rounded(.down))
        return (0...count).map { Double($0) * step }
    }

    /// A tick's label.
    public func label(_ seconds: Double) -> String {
        Self.clock(seconds, tenths: step < 1, hours: span >= 3600)
    }

    /// `seconds` as m:ss (h:mm:ss with `hours`), with a tenth after a point with `tenths`.
    public static func clock(_ seconds: Double, tenths: Bool = false, hours: Bool = false) -> String {
        let tenthsTotal = Int((max(0, seconds) * 10).rounded())
        let whole = tenths ? tenthsTotal / 10 : Int(max(0, seconds).rounded())
        let s = whole % 60, m = whole / 60 % 60, h = whole / 3600
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var text = hours || h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(whole / 60):\(two(s))"
        if tenths { text += ".\(tenthsTotal % 10)" }
        return text
    }
}
