/// A straight line fitted by ordinary least squares, and whether its slope means anything.
public struct LinearFit: Equatable, Sendable {
    public var slope: Double
    public var intercept: Double
    /// The share of the variance the line explains, 0…1 (1 when every y is equal: a flat
    /// line explains a flat series fully).
    public var rSquared: Double
    /// The standard error of the slope (0 with fewer than three points).
    public var slopeStandardError: Double
    public var count: Int

    /// Fits y = slope·x + intercept to the pairs; nil with fewer than two points or when
    /// every x is the same. Sums are taken about the means, so large x (milliseconds since
    /// start) and y (bytes) lose no precision.
    public static func fit(_ xs: [Double], _ ys: [Double]) -> LinearFit? {
        let n = min(xs.count, ys.count)
        guard n >= 2 else { return nil }
        var meanX = 0.0, meanY = 0.0
        for i in 0..<n { meanX += xs[i]; meanY += ys[i] }
        meanX /= Double(n); meanY /= Double(n)
        var sxx = 0.0, sxy = 0.0, syy = 0.0
        for i in 0..<n {
            let dx = xs[i] - meanX, dy = ys[i] - meanY
            sxx += dx * dx; sxy += dx * dy; syy += dy * dy
        }
        guard sxx > 0, sxx.isFinite, sxy.isFinite, syy.isFinite else { return nil }
        let slope = sxy / sxx
        let residual = max(syy - slope * sxy, 0)
        let r2 = syy == 0 ? 1 : min(max(1 - residual / syy, 0), 1)
        let standardError = n > 2 ? (residual / Double(n - 2) / sxx).squareRoot() : 0
        return LinearFit(slope: slope, intercept: meanY - slope * meanX, rSquared: r2,
                         slopeStandardError: standardError, count: n)
    }

    /// Whether the slope is a real trend over a span of `spanX`: the line must explain at
    /// least half the variance, the slope must stand three standard errors clear of zero,
    /// and the change it predicts over the span must reach `noiseFloor` (y units). A flat
    /// series with a page or two of jitter passes none of these.
    public func isSignificant(spanX: Double, noiseFloor: Double) -> Bool {
        count >= 5 && rSquared >= 0.5 && slope.magnitude >= 3 * slopeStandardError
            && (slope * spanX).magnitude >= noiseFloor
    }
}
