/// Small numeric helpers for the measurements.
extension Duration {
    /// The duration in seconds as a floating-point number.
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

extension Array where Element == Double {
    /// The middle value (the mean of the two middle values for an even count); 0 when empty.
    var median: Double {
        guard !isEmpty else { return 0 }
        let sorted = self.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
