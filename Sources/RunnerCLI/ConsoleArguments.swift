import ArgumentParser
import Commands

extension ConsoleChoice: ExpressibleByArgument {}

extension AnnotationChoice: ExpressibleByArgument {}

/// `--color`, shared by `run` and `validate`.
struct ColorArguments: ParsableArguments {
    @Option(name: .customLong("color"),
            help: "Colour the output: auto (on a terminal, unless NO_COLOR is set or TERM=dumb; FORCE_COLOR forces it), always or never.")
    var choice: ConsoleChoice = .auto
}

/// `--quiet`, `--progress` and `--annotations`: how `run` reports on the console and in CI.
struct RunOutputArguments: ParsableArguments {
    @Flag(help: "Print only failures, errors and the summary (no PASS or SKIP lines).")
    var quiet = false

    @Option(help: "Draw a live [done/total] line on standard error: auto (on a terminal), always or never.")
    var progress: ConsoleChoice = .auto

    @Option(help: "Also print failures and errors as GitHub annotations: auto (when GITHUB_ACTIONS=true), github or none.")
    var annotations: AnnotationChoice = .auto
}
