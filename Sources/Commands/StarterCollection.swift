import CollectionFormat
import RunnerVersion

/// The files `runner init` writes: a small collection that validates at once, the schemas editors complete it
/// with, and a CI workflow that runs it.
enum StarterCollection {
    /// One file to write: its path from the collection's directory and its text.
    struct File {
        let path: String
        let text: String
    }

    /// Where the schemas go, from the collection's directory.
    static let schemaDirectory = ".runner"

    /// Every file, schemas first.
    static var files: [File] {
        FormatSchema.FileKind.allCases.map { kind in
            File(path: schemaPath(kind), text: FormatSchema.text(for: kind) + "\n")
        } + [
            collectionFile("requests/01-health.yaml", .request, health),
            collectionFile("requests/02-items.yaml", .request, items),
            collectionFile("environments/local.yaml", .environment, localEnvironment),
            collectionFile("environments/qa.yaml", .environment, qaEnvironment),
            File(path: ".github/workflows/api.yml", text: workflow),
        ]
    }

    /// The path of a kind's schema, from the collection's directory.
    static func schemaPath(_ kind: FormatSchema.FileKind) -> String {
        "\(schemaDirectory)/\(kind.rawValue).schema.json"
    }

    /// A YAML file whose first line points yaml-language-server at its schema, relative to the file.
    private static func collectionFile(_ path: String, _ kind: FormatSchema.FileKind, _ text: String) -> File {
        let depth = path.split(separator: "/").count - 1
        let schema = String(repeating: "../", count: depth) + schemaPath(kind)
        return File(path: path, text: "# yaml-language-server: $schema=\(schema)\n" + text)
    }

    private static let health = """
        name: The service answers
        tags: [smoke]
        request:
          url: /health
        auth: none
        expect:
          status: 200
          duration: { lessThan: 2s }

        """

    private static let items = """
        name: Create, fetch and delete an item
        tags: [items]
        steps:
          - name: Create
            request:
              method: POST
              url: /items
              json:
                name: "{{ itemName }}"
                quantity: 3
            expect:
              status: 201
              body:
                $.id: { exists: true }
                $.name: "{{ itemName }}"
            capture:
              itemId: $.id
          - name: Fetch
            request:
              url: /items/{{ itemId }}
            expect:
              status: 200
              headers:
                Content-Type: { startsWith: application/json }
              body:
                $.quantity: { type: integer, greaterThan: 0 }
          - name: Delete
            request:
              method: DELETE
              url: /items/{{ itemId }}
            expect:
              status: [200, 204]

        """

    private static let localEnvironment = """
        # The API on this machine: runner run requests/ --env local (--var port=N for another port).
        baseURL: http://127.0.0.1:{{ port }}
        variables:
          port: 8080
          itemName: local item
        secrets:
          token: { env: API_TOKEN, default: local-token }
        auth: { bearer: "{{ token }}" }

        """

    private static let qaEnvironment = """
        # The QA deployment: QA_TOKEN comes from the CI's secrets, and runner prints it as ***.
        baseURL: https://qa.example.com
        variables:
          itemName: qa item
        secrets:
          token: { env: QA_TOKEN }
        auth: { bearer: "{{ token }}" }
        options:
          timeout: 10s
          retry: { attempts: 3, on: [502, 503, 504, connection] }

        """

    private static var workflow: String {
        """
        # Runs the collection against qa on every push and pull request. Add QA_TOKEN under Settings → Secrets and
        # variables → Actions, and point `uses:` at the repository your team gets runner from.
        name: API checks
        on:
          push:
            branches: [main]
          pull_request:
          workflow_dispatch:

        jobs:
          api:
            runs-on: ubuntu-24.04
            steps:
              - uses: actions/checkout@v4
              - uses: OWNER/runner@v\(RunnerVersion.current)
                with:
                  paths: requests/
                  env: qa
                  report-junit: api-report.xml
                env:
                  QA_TOKEN: ${{ secrets.QA_TOKEN }}

        """
    }
}
