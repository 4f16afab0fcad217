import ReactorReplay
import ReactorTracing

/// libFuzzer's entry point: any bytes through the trace reader and structural replay.
///
/// The reader runs verifying states and not. A crash, trap, leak or sanitizer report is a finding; a
/// thrown error is the expected answer to bad input.
///
/// Built only by `scripts/fuzz.sh` (with `swiftc -sanitize=fuzzer,address`), outside the
/// package, so that `swift build` and `swift test` never compile it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  readEveryEvent(bytes, verifyingStates: true)
  readEveryEvent(bytes, verifyingStates: false)
  if let reader = try? TraceReader(bytes: bytes, name: "fuzz", verifyingStates: false) {
    let replay = StructuralReplay(reader: reader)
    while (try? replay.next()) != nil {}
    for divergence in replay.divergences { _ = "\(divergence)" }
  }
  return 0
}

/// Reads every event, describing each error and warning as the CLI would print it.
private func readEveryEvent(_ bytes: [UInt8], verifyingStates: Bool) {
  do {
    let reader = try TraceReader(bytes: bytes, name: "fuzz", verifyingStates: verifyingStates)
    while let event = try reader.next() { _ = "\(event)" }
    for warning in reader.warnings { _ = "\(warning)" }
  } catch {
    _ = error.description
  }
}
