public import CollectionFormat

/// The process environment variables an environment's secrets are read from, so an export can name them.
public enum SecretVariables {
    /// Each secret's `env:` name by the secret's name, for `environment` read from `sources` (the texts of the files a
    /// collection read); a secret of the selected environment wins over one of the same name in a base it extends.
    public static func names(in environment: ResolvedEnvironment, sources: SourceCache) -> [String: String] {
        definitions(in: environment, sources: sources).mapValues(\.env.value)
    }

    /// Each secret's definition (its `env:` name and `default:`) by the secret's name, as `names` reads them.
    public static func definitions(in environment: ResolvedEnvironment, sources: SourceCache) -> [String: SecretDefinition] {
        var definitions: [String: SecretDefinition] = [:]
        for name in environment.chain {
            for path in sources.paths where fileName(of: path) == name {
                guard let text = sources.text(for: path),
                      let definition = FileDecoding.environment(Array(text.utf8), path: path, name: name).value else { continue }
                for secret in definition.secrets where definitions[secret.name] == nil { definitions[secret.name] = secret }
            }
        }
        return definitions
    }

    /// A path's last component without its `.yaml`/`.yml` extension; nil for other files.
    private static func fileName(of path: String) -> String? {
        let last = path.split(separator: "/").last.map(String.init) ?? path
        for suffix in [".yaml", ".yml"] where last.hasSuffix(suffix) { return String(last.dropLast(suffix.count)) }
        return nil
    }
}
