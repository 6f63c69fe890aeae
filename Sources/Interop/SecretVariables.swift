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
        for definition in chain(of: environment, sources: sources) {
            for secret in definition.secrets where definitions[secret.name] == nil { definitions[secret.name] = secret }
        }
        return definitions
    }

    /// The files of `environment`'s `extends` chain as written, from the selected one to its farthest base, read again
    /// from `sources`.
    public static func chain(of environment: ResolvedEnvironment, sources: SourceCache) -> [EnvironmentDefinition] {
        environment.chain.flatMap { name in
            sources.paths.filter { fileName(of: $0) == name }.compactMap { path in
                sources.text(for: path).flatMap { FileDecoding.environment(Array($0.utf8), path: path, name: name).value }
            }
        }
    }

    /// A path's last component without its `.yaml`/`.yml` extension; nil for other files.
    private static func fileName(of path: String) -> String? {
        let last = path.split(separator: "/").last.map(String.init) ?? path
        for suffix in [".yaml", ".yml"] where last.hasSuffix(suffix) { return String(last.dropLast(suffix.count)) }
        return nil
    }
}
