import Foundation

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

    /// Why `run` cannot start with `limit` open files, in words; nil when it can.
    static func problem(limit: Int) -> String? {
        guard limit < minimum else { return nil }
        return "runner run needs at least \(minimum) open files, and this process may open \(limit) (ulimit -n): raise the limit"
    }

    /// The files run at the same time for `jobs` asked, within `limit` open files (each job needs a connection and a
    /// file or two), and a warning when fewer.
    static func jobs(_ jobs: Int, limit: Int) -> (jobs: Int, warning: String?) {
        let most = max(1, (limit - reserve) / 2)
        guard jobs > most else { return (jobs, nil) }
        return (most, "warning: --jobs \(jobs) lowered to \(most): this process may open \(limit) files (ulimit -n), and each "
                    + "job needs a connection and a file or two")
    }
}
