internal import Foundation

/// A system error number (`errno`) in the words outputs use.
public enum SystemErrorText {
    /// The system's text for `code`, starting in lower case: "connection refused", "no such file or directory".
    public static func words(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
