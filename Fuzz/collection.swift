// fuzz-modules: HTTPCore YAML Expectations CollectionFormat
// fuzz-sources: Tests/CollectionFormatTests/FuzzContracts.swift
// fuzz-regressions: Tests/CollectionFormatTests/Regressions/collection
//
// libFuzzer entry for YAML → definitions: any bytes are decoded in memory as a request file and as an
// environment (`FileDecoding`, the collection reader's per-file path) and their diagnostics rendered; the promises are
// `FuzzContracts.collectionProblem`, which `FuzzRegressionTests` checks on every saved input.
// Built and run by `scripts/fuzz collection SECONDS`.

/// Decodes one fuzzer input; traps when a promise is broken.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCollection(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let problem = FuzzContracts.collectionProblem(bytes) { preconditionFailure(problem) }
    return 0
}
