/// The version of runner: the text of the VERSION file at the repository's root, read when building.
public enum RunnerVersion {
    /// `1.2.3`, as `runner --version` prints it.
    public static let current = versionFileText

    /// The `User-Agent` of requests that do not set one: `runner/1.2.3`.
    public static let userAgent = "runner/\(current)"
}
