import ArgumentParser
import Commands

/// `runner merge-reports`: the JSON reports of a sharded run's parts as one run's reports.
struct MergeReportsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-reports",
        abstract: "Merge the JSON reports of the parts of a sharded run (--shard I/N) into one run's reports.",
        discussion: """
            The parts must all be there, once each, from the same plan (the same files, contents, environment and \
            tags). Exit status: the one the unsharded run would have had; 1 when the parts cannot be merged.
            """
    )

    @Argument(help: ArgumentHelp("The JSON reports (--report-json) of the parts.", valueName: "part.json"))
    var parts: [String]

    @OptionGroup var reports: ReportArguments

    func run() throws {
        var merge = MergeReports(parts: parts)
        (merge.junitReport, merge.jsonReport, merge.markdownReport, merge.tapReport, merge.htmlReport) = reports.paths
        try merge.execute().end()
    }
}
