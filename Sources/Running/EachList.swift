public import CollectionFormat
public import HTTPCore

/// How `each:` becomes runs: the elements a template's list gives, the variables of one row, and why an
/// empty list runs nothing; one rule for `run` and `export curl`.
package enum EachList {
    /// The elements of the list `template` (an `each:`) gives, or why it gives none: an undefined variable, or a value
    /// that is not a list.
    package static func elements(of template: Template, in scope: VariableScope, path: String) -> Result<[JSONValue], RunFailure> {
        let value: JSONValue
        do {
            value = try scope.resolve(template)
        } catch {
            return .failure(RunFailure(error, in: path))
        }
        guard case .array(let elements) = value else {
            return .failure(RunFailure(.error("each: '\(template.source)' is \(value.kindName), not a list",
                                              path: path, at: template.mark,
                                              suggestion: "loop over a list, such as a capture of '$.items[*].id'")))
        }
        return .success(elements)
    }

    /// The skip reason of an `each:` over an empty list.
    package static func emptyReason(_ template: Template) -> String { "each: '\(template.source)' is an empty list" }

    /// `scope` (a file's starting scope) with the fields of row `row` defined, each resolved in that scope; a problem is located
    /// in `path`, the file the row values are written in (the data file, or the request file for inline rows).
    package static func scope(_ scope: VariableScope, withRow row: Int, of rows: DataRows,
                              in path: String) throws(RunFailure) -> VariableScope {
        var scope = scope
        for (column, value) in zip(rows.columns, rows.rows[row]) {
            do { scope.define(column, try scope.resolve(value), in: .row) } catch { throw RunFailure(error, in: path) }
        }
        return scope
    }
}
