import CollectionFormat
import Running

/// GitHub workflow commands that make GitHub Actions annotate a request file where a request failed or errored.
public struct GitHubAnnotations: Sendable {
    public var redactor: Redactor

    public init(redactor: Redactor) {
        self.redactor = redactor
    }

    /// One `::error file=PATH,line=L,col=C,title=NAME::MESSAGE` line per failed expectation and per error of
    /// `outcome` (none for a pass or a skip), secrets redacted; a problem with no file or place leaves those out.
    public func commands(for outcome: RequestOutcome) -> [String] {
        redactor.learn(from: outcome)
        return OutcomeText.diagnostics(of: outcome).map { diagnostic in
            var escaped: [(name: String, value: String)] = []
            if let path = diagnostic.path {
                // The path and numbers not redacted: a short secret's value may equal a folder's name or a number.
                escaped.append(("file", TerminalText.printable(path)))
                if let mark = diagnostic.mark {
                    escaped += [("line", String(mark.line)), ("col", String(mark.column))]
                }
            }
            // The title on one line, as the console shows the name (a data row's name may hold line breaks and tabs).
            escaped.append(("title", TerminalText.oneLine(redactor.redactName(outcome.displayName, file: outcome.file))))
            let message = [diagnostic.message] + diagnostic.notes + (diagnostic.suggestion.map { ["help: \($0)"] } ?? [])
            return Self.command("error", properties: escaped, message: safe(message.joined(separator: "\n")))
        }
    }

    /// Text from a file, a server or the command line, redacted and without raw control characters.
    private func safe(_ text: String) -> String {
        TerminalText.printable(redactor.redact(text))
    }

    /// `::NAME key=value,…::message`, escaped as GitHub reads workflow commands.
    static func command(_ name: String, properties: [(name: String, value: String)], message: String) -> String {
        let list = properties.map { "\($0.name)=\(escapedProperty($0.value))" }.joined(separator: ",")
        return "::\(name)\(list.isEmpty ? "" : " " + list)::\(escapedMessage(message))"
    }

    /// A command's message with `%`, CR and LF percent-encoded (`%25`, `%0D`, `%0A`).
    static func escapedMessage(_ text: String) -> String {
        percentEncoding(["%", "\r", "\n"], in: text)
    }

    /// A property value, escaped as a message is and with `:` and `,` percent-encoded too (`%3A`, `%2C`).
    static func escapedProperty(_ text: String) -> String {
        percentEncoding(["%", "\r", "\n", ":", ","], in: text)
    }

    /// `text` with each of `characters` written as `%` and its two hexadecimal digits.
    private static func percentEncoding(_ characters: Set<Unicode.Scalar>, in text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            guard characters.contains(scalar) else {
                escaped.unicodeScalars.append(scalar)
                continue
            }
            let digits = String(scalar.value, radix: 16, uppercase: true)
            escaped += (digits.count == 1 ? "%0" : "%") + digits
        }
        return escaped
    }
}
