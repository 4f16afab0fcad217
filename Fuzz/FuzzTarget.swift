import ReactorExport
import ReactorReplay
import ReactorTestGeneration
import ReactorTracing

/// libFuzzer's entry point: any bytes through the trace reader and structural replay, the
/// Perfetto writer (whose document must parse as JSON) and the test generator's string
/// literal writer (whose literal must stay on one line, free of control characters).
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
  checkPerfetto(bytes)
  checkStringLiteral(String(decoding: bytes, as: UTF8.self))
  return 0
}

/// The Perfetto export of a trace that reads: a document that parses as JSON.
private func checkPerfetto(_ bytes: [UInt8]) {
  guard let reader = try? TraceReader(bytes: bytes, name: "fuzz"),
    let export = try? PerfettoTrace(reader: reader)
  else { return }
  let document = export.serialized
  guard (try? JSONValue(parsing: String(decoding: document, as: UTF8.self))) != nil else {
    fatalError("the Perfetto export is not JSON")
  }
}

/// A string literal of any text: one line, no raw control character, delimited as it says.
private func checkStringLiteral(_ text: String) {
  let literal = SwiftLiteral.string(text)
  for scalar in literal.unicodeScalars
  where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    || scalar == "\u{2028}" || scalar == "\u{2029}"
  {
    fatalError("a raw control character in a string literal")
  }
  let hashes = literal.prefix { $0 == "#" }
  guard literal.hasPrefix(hashes + "\""), literal.hasSuffix("\"" + hashes) else {
    fatalError("a string literal without its delimiters")
  }
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
