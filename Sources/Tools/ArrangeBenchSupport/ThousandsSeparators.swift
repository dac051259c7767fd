extension BinaryInteger {
    /// The number with a comma between each group of three digits.
    ///
    /// ```swift
    /// 100_000.withThousandsSeparators  // "100,000"
    /// (-1_000).withThousandsSeparators  // "-1,000"
    /// ```
    public var withThousandsSeparators: String {
        let digits = String(magnitude)
        let grouped = digits.reversed().enumerated().reduce(into: "") { text, pair in
            if pair.offset > 0, pair.offset.isMultiple(of: 3) { text.append(",") }
            text.append(pair.element)
        }
        return (self < 0 ? "-" : "") + String(grouped.reversed())
    }
}
