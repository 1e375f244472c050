/// A `<curve>`: 128 values, one per controller value 0–127, through which a controller passes
/// before it modulates (`volume_curvecc7=…` names a curve by its index).
///
/// Points not given are joined by straight lines; `v000` defaults to 0 and `v127` to 1, as in
/// sfizz.
public struct SFZCurve: Hashable, Sendable {
    /// The 128 values.
    public var values: [Float]

    /// A curve with the given values (padded or cut to 128).
    public init(values: [Float]) {
        var v = Array(values.prefix(128))
        while v.count < 128 { v.append(v.last ?? 0) }
        self.values = v
    }

    /// A curve through the given points (index 0–127 → value), the ends defaulting to 0 and 1,
    /// linear in between.
    public init(points: [Int: Float]) {
        var values = [Float](repeating: 0, count: 128)
        var known = [Bool](repeating: false, count: 128)
        values[0] = 0
        values[127] = 1
        known[0] = true
        known[127] = true
        for (index, value) in points where (0..<128).contains(index) {
            values[index] = value
            known[index] = true
        }
        var left = 0
        for right in 1..<128 where known[right] {
            let span = right - left
            if span > 1 {
                let step = (values[right] - values[left]) / Float(span)
                for i in 1..<span { values[left + i] = values[left] + step * Float(i) }
            }
            left = right
        }
        self.values = values
    }

    /// The curve's value for controller value `x` (0–127, interpolated between points).
    public func value(at x: Float) -> Float {
        let clamped = min(max(x, 0), 127)
        let i = Int(clamped)
        if i >= 127 { return values[127] }
        let fraction = clamped - Float(i)
        return values[i] + (values[i + 1] - values[i]) * fraction
    }

    /// sfizz's curves 0–6, there before any `<curve>`: 0 linear 0→1, 1 bipolar −1→1, 2 linear
    /// 1→0, 3 bipolar 1→−1, 4 x², 5 √x, 6 √(1−x).
    public static let predefined: [SFZCurve] = {
        func line(_ a: Float, _ b: Float) -> SFZCurve { SFZCurve(points: [0: a, 127: b]) }
        func map(_ f: (Double) -> Double) -> SFZCurve {
            SFZCurve(values: (0..<128).map { Float(f(Double($0) / 127)) })
        }
        return [line(0, 1), line(-1, 1), line(1, 0), line(1, -1),
                map { $0 * $0 }, map { $0.squareRoot() }, map { (1 - $0).squareRoot() }]
    }()
}

/// The instrument's curves: sfizz's predefined 0–6 and those of `<curve>` headers. A
/// `<curve>` with `curve_index` takes that index (0–255); one without takes the next free
/// index after the others, unless an explicit index was used before (then it is dropped, as
/// in sfizz).
public struct SFZCurveSet: Hashable, Sendable {
    /// Curves by index; predefined ones included.
    public private(set) var curves: [Int: SFZCurve]
    private var usesExplicitIndexes = false
    /// The highest index a `<curve>` may take.
    public static let maximumIndex = 255

    /// The predefined curves only.
    public init() {
        var curves: [Int: SFZCurve] = [:]
        for (i, curve) in SFZCurve.predefined.enumerated() { curves[i] = curve }
        self.curves = curves
    }

    /// The curve at `index`, or curve 0 (linear) when there is none.
    public func curve(at index: Int) -> SFZCurve {
        curves[index] ?? SFZCurve.predefined[0]
    }

    /// Adds a `<curve>`; returns the index it took, nil when dropped.
    @discardableResult
    mutating func add(_ curve: SFZCurve, index: Int?) -> Int? {
        if let index {
            guard (0...Self.maximumIndex).contains(index) else { return nil }
            usesExplicitIndexes = true
            curves[index] = curve
            return index
        }
        guard !usesExplicitIndexes else { return nil }
        let next = (curves.keys.max() ?? -1) + 1
        guard next <= Self.maximumIndex else { return nil }
        curves[next] = curve
        return next
    }
}
