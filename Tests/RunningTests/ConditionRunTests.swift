import CollectionFormat
import CollectionReading
import Foundation
import HTTPCore
import Running
import Testing
import TestSupport

/// `when:`, `finally:` and `each:` where they meet `use:`, tags and seeds.
@Suite struct ConditionRunTests {
    /// The paths (with query) the loader received, in order.
    static func paths(_ loader: ScriptedLoader) async -> [String] {
        await loader.received.map { request in
            request.components.percentEncodedQuery.map { "\(request.path)?\($0)" } ?? request.path
        }
    }

    /// A used flow's own `when:`, `skip:` and `tags:` (beside its `steps:`) apply to its steps and cleanup steps, as a used
    /// single request's do: they were dropped, and the steps sent (trial helper-185).
    @Test func aUsedFlowsWhenSkipAndTagsApplyToItsSteps() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment("variables: { go: 1 }\n"),
            "requests/_guarded.yaml": """
                tags: [flowtag]
                when: { "{{ nope }}": { exists: true } }
                steps:
                  - request: { method: DELETE, url: /guarded }
                finally:
                  - request: { method: DELETE, url: /guarded-cleanup }
                """,
            "requests/_skipped.yaml": "skip: disabled fragment\nsteps:\n  - request: { method: DELETE, url: /skipped }\n",
            "requests/_open.yaml": "tags: [open]\nwhen: { \"{{ go }}\": 1 }\nsteps:\n  - request: { url: /open }\n",
            "requests/flow.yaml": """
                steps:
                  - use: _guarded.yaml
                  - use: _skipped.yaml
                  - use: _open.yaml
                    with: { go: 1 }
                """,
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [], fallback: .response(status: 200))
        let summary = try await collection.run(loader)
        #expect(await Self.paths(loader) == ["/v1/open"])
        #expect(summary.outcomes.map(\.skipReason) == [#"when "{{ nope }}" is present: was absent"#, #"when "{{ nope }}" is present: was absent"#,
                                                       "disabled fragment", nil], "\(summary.outcomes)")
        let loaded = await collection.load()
        let steps = try #require(loaded.files.first?.steps)
        #expect(steps.map(\.tags) == [["flowtag"], ["flowtag"], [], ["open"]])
        // The `with:` value the used flow's own `when:` reads is read (helper-187: it was said to be read nowhere).
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
    }

    /// A used step's own `when:` and `each:` see the `with:` values; a `when:` beside the `use:` decides whether the use
    /// runs, in the flow's scope: it does not see that use's `with:` values (the flow's `go` here, not the one given).
    @Test func aUsedStepsWhenAndEachSeeTheWithValuesAndAWhenBesideTheUseSeesTheFlows() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment("variables: { nums: [1, 2, 3], go: flow }\n"),
            "requests/_used.yaml": """
                steps:
                  - when: { "{{ go }}": { in: [yes, again] } }
                    request: { url: "/when/{{ go }}" }
                  - each: "{{ ids }}"
                    request: { url: "/each/{{ item }}" }
                """,
            "requests/flow.yaml": """
                steps:
                  - use: _used.yaml
                    with: { go: "yes", ids: "{{ nums }}" }
                  - use: _used.yaml
                    when: { "{{ go }}": "flow" }
                    with: { go: "again", ids: [9] }
                  - use: _used.yaml
                    when: { "{{ go }}": "yes" }
                    with: { go: "yes", ids: [8] }
                  - use: _used.yaml
                    when: { "{{ only }}": { exists: false } }
                    with: { only: 1, go: "{{ only }}", ids: [] }
                """,
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [], fallback: .response(status: 200))
        let summary = try await collection.run(loader)
        #expect(await Self.paths(loader) == ["/v1/when/yes", "/v1/each/1", "/v1/each/2", "/v1/each/3", "/v1/when/again", "/v1/each/9"])
        #expect(summary.outcomes.map(\.verdict) == [.passed, .passed, .passed, .passed, .passed, .passed, .skipped, .skipped,
                                                   .skipped, .skipped])
        #expect(summary.outcomes[6].skipReason == #"when "{{ go }}" is equal to "yes": was "flow""#)
        // The fourth use runs: its own `only` is not seen by the `when:` beside it; its steps skip for their own reasons.
        #expect(summary.outcomes.suffix(2).map(\.skipReason) == [#"when "{{ go }}" is in ["yes","again"]: was 1"#,
                                                                 "each: '{{ ids }}' is an empty list"], "\(summary.outcomes)")
        // validate says that a `when:` beside a `use:` does not see that use's `with:` values.
        let warnings = await collection.load().diagnostics.map(\.message)
        #expect(warnings == ["'only' is given by the with: beside this when:, which does not see it: the condition decides "
                                + "whether the use runs, before its with: values are defined, so it finds it absent"], "\(warnings)")
    }

    /// A `when:` beside `use:` that requires a variable to exist defines it for the `with:` values too: with it absent the
    /// steps are skipped (not an error at `with:`), with it given they run with the value.
    @Test func aWhenBesideUseRequiringAVariableCoversTheWithValues() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/_f/leaf.yaml": "request: { url: \"/leaf/{{ b }}\" }\n",
            "requests/_f/nest.yaml": "steps:\n  - use: leaf.yaml\n    with: { b: \"n-{{ w }}\" }\n",
            "requests/flow.yaml": """
                steps:
                  - use: _f/leaf.yaml
                    with: { b: "{{ maybe }}" }
                    when: { "{{ maybe }}": { exists: true } }
                  - use: _f/nest.yaml
                    with: { w: "{{ maybe }}" }
                    when: { "{{ maybe }}": { exists: true } }
                  - request: { url: "/after" }
                """,
        ])
        defer { collection.remove() }
        let diagnostics = await collection.load().diagnostics
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let absent = ScriptedLoader(routes: [], fallback: .response(status: 200))
        let skipped = try await collection.run(absent)
        #expect(skipped.outcomes.map(\.verdict) == [.skipped, .skipped, .passed], "\(skipped.outcomes)")
        #expect(await Self.paths(absent) == ["/v1/after"])
        let given = ScriptedLoader(routes: [], fallback: .response(status: 200))
        let ran = try await collection.run(given, variables: [("maybe", "zz")])
        #expect(ran.outcomes.map(\.verdict) == [.passed, .passed, .passed])
        #expect(await Self.paths(given) == ["/v1/leaf/zz", "/v1/leaf/n-zz", "/v1/after"])
    }

    /// A skip reason reads as a sentence whatever the operators: `starts with`, `does not contain`, `has length`.
    @Test func aSkipReasonSaysWhatTheValueDoes() async throws {
        let conditions = [#"{ startsWith: "zz" }"#, #"{ notContains: "e" }"#, #"{ matches: "^z" }"#, #"{ not: { endsWith: "s" } }"#,
                          "{ length: 9 }", "{ isEmpty: true }", "{ greaterThan: 5 }", #"{ endsWith: "x", matches: "^z" }"#,
                          "{ not: { in: [yes] } }", "{ not: { length: 3 } }"]
        var files = ["environments/test.yaml": environment()]
        for (index, condition) in conditions.enumerated() {
            files["requests/\(index).yaml"] = "request: { url: /a }\nwhen: { \"{{ word }}\": \(condition) }\n"
        }
        let collection = try TestCollection(files)
        defer { collection.remove() }
        let summary = try await collection.run(ScriptedLoader(routes: [], fallback: .response(status: 200)), variables: [("word", "yes")])
        #expect(summary.outcomes.map { $0.skipReason ?? "" } == [
            #"when "{{ word }}" starts with "zz": was "yes""#, #"when "{{ word }}" does not contain "e": was "yes""#,
            #"when "{{ word }}" matches "^z": was "yes""#, #"when "{{ word }}" does not end with "s": was "yes""#,
            #"when "{{ word }}" has length 9: was "yes""#, #"when "{{ word }}" is empty: was "yes""#,
            #"when "{{ word }}" is greater than 5: was "yes" (a string and a number 5 cannot be ordered)"#,
            #"when "{{ word }}" ends with "x" and matches "^z": was "yes""#,
            #"when "{{ word }}" is not in ["yes"]: was "yes""#, #"when "{{ word }}" does not have length 3: was "yes""#,
        ])
    }

    /// A `--var` is text: as a bound it orders a number by value (`greaterThan: "{{ limit }}"` with `--var limit=3`);
    /// a bound that is not a number skips saying the two cannot be ordered.
    @Test func aVarOfDigitsIsANumericBoundAndAWordSaysItCannotBeOrdered() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment("variables: { num: 5 }\n"),
            "requests/1.yaml": "when: { \"{{ num }}\": { greaterThan: \"{{ limit }}\" } }\nrequest: { url: /a }\n",
            "requests/2.yaml": "when: { \"{{ num }}\": { lessThan: \"{{ word }}\" } }\nrequest: { url: /b }\n",
        ])
        defer { collection.remove() }
        let summary = try await collection.run(ScriptedLoader(routes: [], fallback: .response(status: 200)),
                                               variables: [("limit", "3"), ("word", "many")])
        #expect(summary.outcomes.map(\.verdict) == [.passed, .skipped])
        #expect(summary.outcomes.last?.skipReason
                == #"when "{{ num }}" is less than "many": was 5 (a number and a string "many" cannot be ordered)"#)
    }

    /// A key and a bound that both give text of digits (`--var`s, a data row's columns) are ordered by value:
    /// 10 is greater than 9, though "10" comes before "9" as text; two words still compare as text.
    @Test func aKeyAndABoundOfDigitsAreOrderedByValue() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "when: { \"{{ n }}\": { greaterThan: \"{{ limit }}\" } }\nrequest: { url: /a }\n",
            "requests/2.yaml": "when: { \"{{ limit }}\": { greaterThanOrEqual: \"{{ n }}\" } }\nrequest: { url: /b }\n",
            "requests/3.yaml": "when: { \"{{ word }}\": { lessThan: \"{{ other }}\" } }\nrequest: { url: /c }\n",
        ])
        defer { collection.remove() }
        let summary = try await collection.run(ScriptedLoader(routes: [], fallback: .response(status: 200)),
                                               variables: [("n", "10"), ("limit", "9"), ("word", "apple"), ("other", "banana")])
        #expect(summary.outcomes.map(\.verdict) == [.passed, .skipped, .passed])
        #expect(summary.outcomes[1].skipReason == #"when "{{ limit }}" is greater than or equal to "10": was "9""#)
    }

    /// A key that gives text (a `--var`, a data row) is read as a header is: a number for the operators comparing with
    /// one, so `--var n=2` is greater than 1 and equal to 2; a word still cannot be ordered.
    @Test func aVarOfDigitsAsTheKeyComparesAsANumber() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "when: { \"{{ n }}\": { greaterThan: 1 } }\nrequest: { url: /a }\n",
            "requests/2.yaml": "when: { \"{{ n }}\": 2 }\nrequest: { url: /b }\n",
            "requests/3.yaml": "when: { \"{{ n }}\": { lessThan: 2 } }\nrequest: { url: /c }\n",
            "requests/4.yaml": "when: { \"{{ word }}\": { lessThan: 2 } }\nrequest: { url: /d }\n",
        ])
        defer { collection.remove() }
        let summary = try await collection.run(ScriptedLoader(routes: [], fallback: .response(status: 200)),
                                               variables: [("n", "2"), ("word", "two")])
        #expect(summary.outcomes.map(\.verdict) == [.passed, .passed, .skipped, .skipped])
        #expect(summary.outcomes.map { $0.skipReason ?? "" }.suffix(2) == [
            #"when "{{ n }}" is less than 2: was "2""#,
            #"when "{{ word }}" is less than 2: was "two" (a string and a number 2 cannot be ordered)"#,
        ])
    }

    /// A `when:` key's variable that nothing defines is absent, as documented; when its name is close to a defined one
    /// (a typo) a warning says so, and a name like no other gets none.
    @Test func aWhenKeyNamedLikeADefinedVariableIsAWarning() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/a.yaml": "when: { \"{{ regoin }}\": eu }\nrequest: { url: /a }\n",
            "requests/b.yaml": "when: { \"{{ optional_flag }}\": { exists: true } }\nrequest: { url: /b }\n",
            "requests/c.yaml": "when: { \"{{ regio }}\": { not: { exists: true } } }\nrequest: { url: /c }\n",
            "requests/d.yaml": "when: { \"{{ regio }}\": { exists: true, equals: eu } }\nrequest: { url: /d }\n",
        ])
        defer { collection.remove() }
        let loaded = await collection.load(variables: [("region", "eu")])
        // The --var itself is read by none of them.
        #expect(loaded.diagnostics.map { "\($0.severity) \($0.path ?? ""):\($0.mark?.line ?? 0) \($0.message) \($0.suggestion ?? "")" } == [
            "warning :0 --var 'region' is read by no request and no environment variable: it gives nothing its value the files read 'regio': is one of the two names mistyped?",
            "warning requests/a.yaml:1 'regoin' is not defined here, so this condition finds it absent did you mean 'region'?",
        ])
    }

    /// `--var cleanup=true` equals the boolean `true` as a key, as `2` equals the number 2; other words stay text.
    @Test func aVarOfTrueOrFalseAsTheKeyComparesAsABoolean() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1.yaml": "when: { \"{{ cleanup }}\": true }\nrequest: { url: /a }\n",
            "requests/2.yaml": "when: { \"{{ cleanup }}\": { in: [true, 1] } }\nrequest: { url: /b }\n",
            "requests/3.yaml": "when: { \"{{ cleanup }}\": false }\nrequest: { url: /c }\n",
            "requests/4.yaml": "when: { \"{{ yes }}\": true }\nrequest: { url: /d }\n",
        ])
        defer { collection.remove() }
        let summary = try await collection.run(ScriptedLoader(routes: [], fallback: .response(status: 200)),
                                               variables: [("cleanup", "true"), ("yes", "yes")])
        #expect(summary.outcomes.map(\.verdict) == [.passed, .passed, .skipped, .skipped])
        #expect(summary.outcomes.map { $0.skipReason ?? "" }.suffix(2) == [
            #"when "{{ cleanup }}" is equal to false: was "true""#, #"when "{{ yes }}" is equal to true: was "yes""#,
        ])
    }

    /// A selection that leaves out the step of a flow capturing what a selected step uses names that step.
    @Test func aSelectionLeavingOutACapturingStepNamesIt() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/a.yaml": """
                steps:
                  - name: create
                    tags: [create]
                    request: { url: /create }
                    capture: { id: $.id }
                  - request: { url: "/things/{{ id }}" }
                """,
        ])
        defer { collection.remove() }
        let loaded = await collection.load(selection: TagFilter(excludedTags: ["create"]))
        #expect(loaded.diagnostics.map(\.message) == ["'id' is captured only by step 'create' of requests/a.yaml, which --exclude-tag create leaves out"])
    }

    /// A `when:` key read from a capture the selection leaves out would always be absent and the request skipped
    /// (the run passing having tested nothing): an error, as for any other use, for a file's and a step's `when:`.
    @Test func aSelectionLeavingOutTheCaptureAWhenReadsIsAnError() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/1-setup.yaml": "tags: [setup]\nrequest: { url: /setup }\ncapture: { ready: $.ready }\n",
            "requests/2-check.yaml": "tags: [smoke]\nwhen: { \"{{ ready }}\": 5 }\nrequest: { url: /check }\n",
            "requests/3-step.yaml": "steps:\n  - tags: [smoke]\n    when: { \"{{ ready }}\": { exists: true } }\n    request: { url: /step }\n",
            "requests/4-unknown.yaml": "tags: [smoke]\nwhen: { \"{{ nowhere }}\": 1 }\nrequest: { url: /other }\n",
            // A `when:` beside `use:` is located where it is written, not in the used file.
            "requests/_f/x.yaml": "tags: [smoke]\nrequest: { url: /x }\n",
            "requests/5-use.yaml": "steps:\n  - use: _f/x.yaml\n    when: { \"{{ ready }}\": 5 }\n",
        ])
        defer { collection.remove() }
        let loaded = await collection.load(selection: TagFilter(tags: ["smoke"]))
        let message = "'ready' is captured only by requests/1-setup.yaml, which --tag smoke leaves out"
        #expect(loaded.diagnostics.map { "\($0.path ?? ""):\($0.mark.map { "\($0.line):\($0.column)" } ?? "") \($0.message)" } == [
            "requests/2-check.yaml:2:10 \(message)", "requests/3-step.yaml:3:14 \(message)", "requests/5-use.yaml:3:14 \(message)",
        ])
        // Selected with its capturer, or undefined everywhere (absent, as documented), it is no error.
        #expect(await collection.load(selection: TagFilter(tags: ["smoke", "setup"])).diagnostics.isEmpty)
    }

    @Test func aTagThatSelectsAStepOfAFlowKeepsItsCleanupSteps() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/flow.yaml": """
                steps:
                  - tags: [smoke]
                    request: { url: /create }
                    capture: { id: $.id }
                  - request: { url: /other }
                finally:
                  - request: { method: DELETE, url: "/things/{{ id }}" }
                  - tags: [slow]
                    request: { method: DELETE, url: "/slow/{{ id }}" }
                """,
            "requests/unselected.yaml": "steps:\n  - request: { url: /x }\nfinally:\n  - request: { url: /y }\n",
        ])
        defer { collection.remove() }
        // --exclude-tag leaves out a cleanup step that has the tag itself.
        for (selection, paths) in [(TagFilter(tags: ["smoke"]), ["/v1/create", "/v1/things/5", "/v1/slow/5"]),
                                   (TagFilter(tags: ["smoke"], excludedTags: ["slow"]), ["/v1/create", "/v1/things/5"])] {
            let loader = ScriptedLoader(routes: [.path("/v1/create", .json(#"{"id": 5}"#))], fallback: .response(status: 204))
            var options = RunOptions()
            options.selection = selection
            _ = try await collection.run(loader, options: options)
            #expect(await Self.paths(loader) == paths, "\(selection.commandLine)")
        }
    }

    /// A `when:` on a process variable whose value is not UTF-8 is an error, not the variable taken as absent (one
    /// that is unset is absent).
    @Test func aWhenOnAProcessVariableThatIsNotUTF8IsAnError() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/a.yaml": "when: { \"{{ $env.T9_TOKEN }}\": { exists: false } }\nrequest: { url: /a }\n",
            "requests/b.yaml": "when: { \"{{ $env.T9_UNSET }}\": { exists: false } }\nrequest: { url: /b }\n",
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [], fallback: .response(status: 200))
        let summary = try await collection.run(loader, processEnvironment: ProcessEnvironment([:], notUTF8: ["T9_TOKEN"]))
        #expect(summary.outcomes.map(\.verdict) == [.errored, .passed], "\(summary.outcomes)")
        #expect(summary.outcomes.first?.error?.message.contains("'T9_TOKEN' (used as '$env.T9_TOKEN') is not UTF-8 text") == true,
                "\(String(describing: summary.outcomes.first?.error))")
        #expect(await Self.paths(loader) == ["/v1/b"])
    }

    /// A flow whose steps were each skipped has begun: its cleanup runs ("after the steps, whatever happened"), and a
    /// cleanup guarded by the capture's existence is skipped.
    @Test func aFlowWhoseStepsWereEachSkippedRunsItsCleanup() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/flow.yaml": """
                steps:
                  - skip: not ready
                    request: { method: POST, url: /things }
                    capture: { id: $.id }
                finally:
                  - request: { method: DELETE, url: /everything }
                  - when: { "{{ id }}": { exists: true } }
                    request: { method: DELETE, url: "/things/{{ id }}" }
                """,
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [], fallback: .response(status: 204))
        let summary = try await collection.run(loader)
        #expect(summary.outcomes.map(\.verdict) == [.skipped, .passed, .skipped], "\(summary.outcomes)")
        #expect(await Self.paths(loader) == ["/v1/everything"])
    }

    /// A cleanup step reads the flow's own capture: when the flow's capture did not happen, an earlier file's capture of
    /// that name is not used (the docs' guard would delete the other flow's resource, trial helper-138).
    @Test func aCleanupStepDoesNotSeeAnEarlierFilesCaptureOfANameItsFlowCaptures() async throws {
        let flow = { (name: String) in
            """
            steps:
              - request: { method: POST, url: /\(name)/things }
                capture: { id: $.id }
            finally:
              - when: { "{{ id }}": { exists: true } }
                request: { method: DELETE, url: "/things/{{ id }}?by=\(name)" }
            """
        }
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/a.yaml": flow("a"),
            "requests/b.yaml": flow("b"),
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [.path("/v1/a/things", .json(#"{"id": 7}"#)), .path("/v1/b/things", .response(status: 500))],
                                    fallback: .response(status: 204))
        // Nor does a parallel run make the second file wait for the first's capture.
        let run = CollectionRun(collection: await collection.load(), options: RunOptions(jobs: 2), transport: ScriptedLoader())
        #expect(run.fileDependencies == [[], []])
        let summary = try await collection.run(loader)
        #expect(summary.outcomes.map(\.verdict) == [.passed, .passed, .failed, .skipped], "\(summary.outcomes)")
        #expect(await Self.paths(loader) == ["/v1/a/things", "/v1/things/7?by=a", "/v1/b/things"])
    }

    /// A used file's cleanup steps clean up after its own steps: skipped with their reason when none was reached (an earlier
    /// step of the using flow failed), and reading the captures of that use alone: a second use whose create failed does
    /// not delete what the first use created (trial helper-200 F1: it ran, and deleted another step's resource).
    @Test func aUsedFilesCleanupRunsOnlyAfterItsOwnStepsAndReadsTheirCaptures() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/_f/_widget.yaml": """
                steps:
                  - name: Create
                    request: { method: POST, url: "/widgets{{ suffix }}" }
                    capture: { widgetId: $.id }
                finally:
                  - name: Delete
                    when: { "{{ widgetId }}": { exists: true } }
                    request: { method: DELETE, url: "/widgets/{{ widgetId }}" }
                """,
            "requests/a-late.yaml": """
                steps:
                  - request: { url: /health }
                  - use: _f/_widget.yaml
                    with: { suffix: "" }
                finally:
                  - request: { url: /after }
                """,
            "requests/b-twice.yaml": """
                steps:
                  - use: _f/_widget.yaml
                    with: { suffix: "" }
                  - use: _f/_widget.yaml
                    with: { suffix: /refused }
                """,
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [.path("/v1/health", .response(status: 503)), .path("/v1/widgets", .json(#"{"id": 7}"#)),
                                             .path("/v1/widgets/refused", .response(status: 500))],
                                    fallback: .response(status: 204))
        let summary = try await collection.run(loader)
        #expect(await Self.paths(loader) == ["/v1/health", "/v1/after", "/v1/widgets", "/v1/widgets/7", "/v1/widgets/refused"])
        #expect(summary.outcomes.map(\.verdict) == [.failed, .skipped, .skipped, .passed, .passed, .passed, .failed, .skipped],
                "\(summary.outcomes)")
        #expect(summary.outcomes[2].skipReason == "an earlier step failed: step 1", "\(summary.outcomes[2])")
        #expect(summary.outcomes[7].skipReason == #"when "{{ widgetId }}" is present: was absent"#, "\(summary.outcomes[7])")
    }

    /// A used file's unguarded cleanup step reading what its use did not capture names the used file as the capturer, not
    /// the using flow, whose own step captured that name (trial helper-201 L1).
    @Test func aUsedCleanupsUndefinedCaptureNamesTheUsedFile() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/_f/_wu.yaml": """
                steps:
                  - name: Create
                    when: { "{{ doit }}": true }
                    request: { method: POST, url: /widgets }
                    capture: { widgetId: $.id }
                finally:
                  - request: { method: DELETE, url: "/widgets/{{ widgetId }}" }
                """,
            "requests/a.yaml": """
                steps:
                  - name: Keep
                    request: { method: POST, url: /keep }
                    capture: { widgetId: $.id }
                  - use: _f/_wu.yaml
                    with: { doit: false }
                """,
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader([], fallback: .json(#"{"id": 7}"#))
        let summary = try await collection.run(loader)
        #expect(summary.outcomes.map(\.verdict) == [.passed, .skipped, .errored], "\(summary.outcomes)")
        #expect(summary.outcomes.last?.error?.suggestion?.hasPrefix("requests/_f/_wu.yaml captures it, but did not") == true,
                "\(String(describing: summary.outcomes.last?.error))")
        #expect(await Self.paths(loader) == ["/v1/keep"])
    }

    /// `--tag` on a step outside a `use:` keeps the flow's cleanup steps, not that use's: they clean up after steps the
    /// selection leaves out (trial helper-201 N1: they ran, and a used create and delete made every such run exit 2).
    @Test func aTagOutsideAUseKeepsNotThatUsesCleanup() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/_f/_widget.yaml": """
                steps:
                  - name: Create
                    tags: [create]
                    request: { method: POST, url: /widgets }
                    capture: { widgetId: $.id }
                finally:
                  - name: Delete
                    request: { method: DELETE, url: "/widgets/{{ widgetId }}" }
                """,
            "requests/a.yaml": """
                steps:
                  - name: Health
                    tags: [smoke]
                    request: { url: /health }
                  - use: _f/_widget.yaml
                finally:
                  - request: { url: /after }
                """,
        ])
        defer { collection.remove() }
        let loaded = await collection.load()
        let file = try #require(loaded.files.first)
        let smoke = TagFilter(tags: ["smoke"])
        #expect(smoke.selectedSteps(of: file).map(\.request.url.source) == ["/health", "/after"])
        #expect(TagFilter(tags: ["create"]).selectedSteps(of: file).map(\.request.url.source)
                == ["/widgets", "/widgets/{{ widgetId }}", "/after"])
    }

    /// An unguarded cleanup step reading the flow's capture that did not happen is an error whose help names the flow's
    /// file, not an earlier file whose capture of that name worked (trial helper-144).
    @Test func aCleanupStepsUndefinedCaptureNamesItsOwnFlowOnly() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/a.yaml": "request: { method: POST, url: /a/things }\ncapture: { id: $.id }\n",
            "requests/b.yaml": """
                steps:
                  - request: { method: POST, url: /b/things }
                    capture: { id: $.id }
                finally:
                  - request: { method: DELETE, url: "/things/{{ id }}" }
                """,
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [.path("/v1/a/things", .json(#"{"id": 7}"#)), .path("/v1/b/things", .response(status: 500))],
                                    fallback: .response(status: 204))
        let summary = try await collection.run(loader)
        #expect(summary.outcomes.map(\.verdict) == [.passed, .failed, .errored], "\(summary.outcomes)")
        let error = try #require(summary.outcomes.last?.error)
        #expect(error.message == "undefined variable 'id'")
        #expect(error.suggestion == "requests/b.yaml captures it, but did not: it failed, errored or was skipped (see its result)",
                "\(error.suggestion ?? "")")
        #expect(await Self.paths(loader) == ["/v1/a/things", "/v1/b/things"])
    }

    @Test func aCleanupLoopOverAListNeverCapturedIsSkipped() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment(),
            "requests/flow.yaml": """
                steps:
                  - request: { url: /list }
                    capture: { ids: "$.ids[*]" }
                finally:
                  - each: "{{ ids }}"
                    request: { method: DELETE, url: "/things/{{ item }}" }
                """,
        ])
        defer { collection.remove() }
        let loader = ScriptedLoader(routes: [.path("/v1/list", .response(status: 500))], fallback: .response(status: 204))
        let summary = try await collection.run(loader)
        #expect(summary.outcomes.map(\.verdict) == [.failed, .skipped])
        #expect(summary.outcomes.last?.skipReason == "each: '{{ ids }}' is undefined: nothing was captured")
    }

    @Test func aSeedReplaysRandomValuesOfTheEnvironmentToo() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment("variables: { runId: \"{{ $uuid }}\" }\n"),
            "requests/a.yaml": "request: { url: \"/a/{{ runId }}/{{ $randomInt(1, 1000000) }}\" }\n",
        ])
        defer { collection.remove() }
        func sent(seed: UInt64) async throws -> (path: String, seed: UInt64?) {
            var request = collection.readRequest(variables: [], processEnvironment: [:])
            request.seed = seed
            let loaded = await CollectionReader.read(request)
            let loader = ScriptedLoader(routes: [], fallback: .response(status: 200))
            let summary = await CollectionRun(collection: loaded, options: RunOptions(), transport: loader).run()
            return (await Self.paths(loader).first ?? "", summary.seed)
        }
        let first = try await sent(seed: 11), again = try await sent(seed: 11), other = try await sent(seed: 12)
        #expect(first.path == again.path)
        #expect(first.path != other.path)
        #expect(first.seed == 11)
    }
}
