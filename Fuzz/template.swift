// fuzz-modules: HTTPCore YAML Expectations CollectionFormat
// fuzz-sources: Tests/CollectionFormatTests/FuzzContracts.swift
// fuzz-regressions: Tests/CollectionFormatTests/Regressions/template
//
// libFuzzer entry for templates: the input, as text, is parsed as a template and, wrapped in `{{ }}`, as one
// expression (variable paths, built-ins), then resolved against a fixed scope with structured variables,
// secrets and captures; the promises are `FuzzContracts.templateProblem`, which `FuzzRegressionTests`
// checks on every saved input. Built and run by `scripts/fuzz template SECONDS`.

/// Parses and resolves one fuzzer input; traps when a promise is broken.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTemplate(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: data == nil ? 0 : size), as: UTF8.self)
    if let problem = FuzzContracts.templateProblem(text) { preconditionFailure(problem) }
    return 0
}
