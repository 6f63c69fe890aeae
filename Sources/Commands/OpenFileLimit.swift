import Foundation
import CollectionFormat

/// How many files (sockets, pipes, reports) the process may have open at once, and what `run` does with that.
public enum OpenFileLimit {
    /// The files `run` needs open besides its connections: standard streams, event loops, a file being read, a report.
    static let reserve = 16
    /// The fewest open files `run` starts with.
    static let minimum = reserve + 4

    /// Raises the soft limit to the hard one (as servers and Go programs do), up to 65,536; the limit then.
    @discardableResult
    public static func raise() -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return Int.max }
        let wanted = min(limit.rlim_max, 65_536)
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// The fewest open files any command starts with: Swift's concurrency runtime opens files of its own (an epoll
    /// instance, an eventfd) when its first thread starts, and stops the process (SIGILL) when it cannot.
    public static let processMinimum = 8

    /// Why `run` cannot start with `limit` open files, in words; nil when it can.
    static func problem(limit: Int) -> String? {
        guard limit < minimum else { return nil }
        return "runner run needs at least \(minimum) open files, and this process may open \(limit) (ulimit -n): raise the limit"
    }

    /// The files run at the same time for `jobs` asked, within `limit` open files, and a warning when fewer: each job
    /// needs a file or two and a connection to each of the `origins` its requests reach (a connection answered on is kept
    /// for the next request there, as long as the run lasts); a warning too when one job alone may need more.
    static func jobs(_ jobs: Int, limit: Int, origins: Int = 1) -> (jobs: Int, warning: String?) {
        let most = max(1, (limit - reserve) / (1 + origins))
        let reach = origins == 1 ? "a connection" : "a connection to each of the \(origins) hosts its requests reach"
        if limit - reserve < 1 + origins {
            return (1, "warning: the requests reach \(origins) hosts, and this process may open \(limit) files (ulimit -n): a "
                    + "connection to each may not fit, and a request then fails with 'too many open files'; raise the limit")
        }
        guard jobs > most else { return (jobs, nil) }
        return (most, "warning: --jobs \(jobs) lowered to \(most): this process may open \(limit) files (ulimit -n), and each "
                    + "job needs \(reach) and a file or two")
    }

    /// How many origins (scheme, host and port) the requests reach, as far as their URLs say before sending: each
    /// absolute URL's, and the environment's baseURL for the others (one whose host a template gives is that one).
    static func origins(in loaded: LoadedCollection) -> Int {
        var origins = Set<String>()
        let base = loaded.environment?.baseURL.flatMap(origin)
        for step in loaded.files.lazy.flatMap(\.steps) {
            if let origin = origin(of: step.request.url.source) ?? base { origins.insert(origin) }
        }
        return max(1, origins.count)
    }

    /// `scheme://authority` of an absolute http(s) URL as written; nil for another text.
    private static func origin(of url: String) -> String? {
        guard url.hasPrefix("http://") || url.hasPrefix("https://"), let separator = url.range(of: "://") else { return nil }
        let rest = url[separator.upperBound...]
        return String(url[..<(rest.firstIndex { "/?#".contains($0) } ?? url.endIndex)]).lowercased()
    }
}
