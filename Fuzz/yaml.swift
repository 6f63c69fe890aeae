// fuzz-modules: HTTPCore YAML
// fuzz-regressions: Tests/YAMLTests/Regressions
//
// libFuzzer entry for the YAML layer: any bytes go to `YAMLParser.parse`, which must return a tree,
// nil or a located `YAMLError`, never crash or hang. Built and run by `scripts/fuzz yaml SECONDS`.
import YAML

/// Parses one fuzzer input; every outcome but a crash or a hang is fine.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    do {
        _ = try YAMLParser.parse(buffer: UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    } catch {
        let bound = size + 1
        precondition((1...bound).contains(error.mark.line) && (1...bound).contains(error.mark.column),
                     "an error located outside the input: \(error)")
    }
    return 0
}
