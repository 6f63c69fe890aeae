internal import Foundation

/// A date in an HTTP header, read with RFC 6265's lenient algorithm (section 5.1.1): the first time, day of month, month
/// name and year found among its tokens, in any order and date style. It reads a cookie's `Expires` as browsers do, and
/// each HTTP-date form RFC 9110 (section 5.6.7) has recipients accept: IMF-fixdate, RFC 850's (a two-digit year) and C's
/// `asctime`.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date, nil when the text has no valid one.
    static func parse(_ text: String) -> Date? {
        var time: (Int, Int, Int)?, day: Int?, month: Int?, year: Int?
        let tokens = text.split { character in
            !(character.isASCII && (character.isLetter || character.isNumber || character == ":"))
        }
        for token in tokens {
            if time == nil, let parsed = self.time(token) {
                time = parsed
            } else if day == nil, let parsed = leadingNumber(token, digits: 1...2) {
                day = parsed
            } else if month == nil, let index = months.firstIndex(of: token.prefix(3).lowercased()) {
                month = index + 1
            } else if year == nil, let parsed = leadingNumber(token, digits: 2...4) {
                year = parsed
            }
        }
        guard let (hour, minute, second) = time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard (1...31).contains(day), year >= 1601, hour <= 23, minute <= 59, second <= 59 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: components),
              calendar.component(.day, from: date) == day else { return nil }
        return date
    }

    /// `hh:mm:ss` (one or two digits each), followed by anything that is not a digit.
    private static func time(_ token: Substring) -> (Int, Int, Int)? {
        let fields = token.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3, let hour = leadingNumber(fields[0], digits: 1...2), fields[0].count <= 2,
              let minute = leadingNumber(fields[1], digits: 1...2), fields[1].count <= 2,
              let second = leadingNumber(fields[2], digits: 1...2) else { return nil }
        return (hour, minute, second)
    }

    /// The number a token starts with when it has `digits` digits and no digit follows them.
    private static func leadingNumber(_ token: Substring, digits: ClosedRange<Int>) -> Int? {
        let number = token.prefix { $0.isASCII && $0.isNumber }
        guard digits.contains(number.count) else { return nil }
        return Int(number)
    }
}
