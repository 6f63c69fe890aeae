import Foundation
import PackagePlugin

/// Writes the version in the VERSION file at the package root as a Swift constant of the target, so that the
/// version is written in one place (the file `make dist` names the tarball from) and never in Swift source.
@main
struct VersionFile: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let versionFile = context.package.directoryURL.appending(path: "VERSION")
        let output = context.pluginWorkDirectoryURL.appending(path: "VersionFileText.swift")
        // A version is digits, letters, dots, '-' and '+' (semantic versioning): anything else stops the build
        // rather than reaching Swift source.
        let script = """
            version="$(tr -d ' \\n' < "$1")"
            case "$version" in
              ''|*[!0-9A-Za-z.+-]*) echo "$1: expected a version such as 1.2.3, found '$version'" >&2; exit 1 ;;
            esac
            printf '/// The text of the VERSION file.\\nlet versionFileText = "%s"\\n' "$version" > "$2"
            """
        return [.buildCommand(
            displayName: "Reading the version from VERSION",
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", script, "version-file", versionFile.path, output.path],
            inputFiles: [versionFile],
            outputFiles: [output]
        )]
    }
}
