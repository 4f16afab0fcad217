import ReactorDiagrams
import ReactorExport
import ReactorFleet
import ReactorJSON
import ReactorLiveRecording
import ReactorReplay
import ReactorScript
import ReactorTestGeneration
import ReactorTracing

/// libFuzzer's entry point: any bytes through the trace reader and structural replay (and, for
/// an input it accepts, the structural-replay property on one-reference changes of it: see
/// ``SessionMutator``), the
/// Perfetto writer (whose document must parse as JSON, whole and streamed with few events
/// waiting; on a session too, with every arrow started and ended once), the sequence diagram
/// and session timeline builders (DOT with no hidden character; Mermaid one statement per
/// line, never deactivating a participant that is not active) and the per-type state
/// machines of a session, the OTLP writer on traces and sessions (JSON lines, links to spans it wrote),
/// the live server's command bodies (``CommandFuzz``),
/// the fleet's summary line reader (what it reads writes back the same), the action-script
/// reader, and the test generator's value writer (string literals, enum cases and
/// identifiers made from file names, which must stay on one line, free of control
/// characters).
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
  // Structural replay of a trace or a session: one path (a trace is a session of one reactor).
  if let reader = try? SessionReader(bytes: bytes, name: "fuzz", verifyingStates: false) {
    let replay = StructuralReplay(reader: reader)
    while (try? replay.next()) != nil {}
    for divergence in replay.divergences { _ = "\(divergence)" }
  }
  // Sessions that lie: no changed reference that names the future is accepted.
  SessionMutator.check(bytes)
  // `shrink` and `compare` inputs: a session's script, conditions, the shrinker; summary
  // lines compared (see ``ShrinkFuzz`` and ``CompareFuzz``).
  ShrinkFuzz.check(bytes)
  CompareFuzz.check(bytes)
  // The control channel's commands, as the server reads them (see ``CommandFuzz``).
  CommandFuzz.check(bytes)
  checkPerfetto(bytes)
  checkPerfettoSession(bytes)
  checkSessionDiagrams(bytes)
  checkOTLP(bytes)
  checkSummaryLines(bytes)
  let text = String(decoding: bytes, as: UTF8.self)
  checkScript(text)
  checkStringLiteral(text)
  checkValueWriter(text)
  return 0
}

/// The OTLP export of a trace or session that reads: lines that parse as JSON, and links
/// that name spans of the export.
private func checkOTLP(_ bytes: [UInt8]) {
  var exports: [OTLPTrace] = []
  if let reader = try? TraceReader(bytes: bytes, name: "fuzz"),
    let export = try? OTLPTrace(reader: reader)
  {
    exports.append(export)
  }
  if let session = try? SessionReader(bytes: bytes, name: "fuzz"),
    let export = try? OTLPTrace(session: session)
  {
    exports.append(export)
  }
  for export in exports {
    var spans: Set<String> = []
    var links: [String] = []
    for line in String(decoding: export.jsonLines, as: UTF8.self).split(separator: "\n") {
      guard let value = try? JSONValue(parsing: String(line)) else {
        fatalError("an OTLP line is not JSON")
      }
      for resourceSpans in value["resourceSpans"]?.arrayValue ?? [] {
        for scopeSpans in resourceSpans["scopeSpans"]?.arrayValue ?? [] {
          for span in scopeSpans["spans"]?.arrayValue ?? [] {
            spans.insert(spanKey(span))
            links += (span["links"]?.arrayValue ?? []).map(spanKey)
          }
        }
      }
    }
    for link in links where !spans.contains(link) {
      fatalError("an OTLP link names no span of the export: \(link)")
    }
  }
}

private func spanKey(_ span: JSONValue) -> String {
  (span["traceId"]?.stringValue ?? "?") + "/" + (span["spanId"]?.stringValue ?? "?")
}

/// Summary lines that read: written again, they read as the same summaries; merged with
/// themselves, they add up or are refused, never trap.
private func checkSummaryLines(_ bytes: [UInt8]) {
  var set = SummarySet()
  guard (try? set.add(jsonLines: bytes, name: "fuzz")) != nil else { return }
  var again = SummarySet()
  do {
    try again.add(jsonLines: set.jsonLines, name: "written")
  } catch {
    fatalError("summaries written by SummarySet do not read back: \(error)")
  }
  guard again.summaries == set.summaries else {
    fatalError("summaries written and read back differ")
  }
  _ = try? again.add(jsonLines: set.jsonLines, name: "twice")
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
  // Streamed with at most 4 events waiting: effects become begins and ends, arrows from
  // actions already written go at the end; still one JSON document.
  guard let again = try? TraceReader(bytes: bytes, name: "fuzz") else { return }
  var streamed: [UInt8] = []
  guard (try? PerfettoTrace.write(reader: again, to: { streamed += $0 }, pendingLimit: 4)) != nil
  else { return }
  guard (try? JSONValue(parsing: String(decoding: streamed, as: UTF8.self))) != nil else {
    fatalError("the streamed Perfetto export is not JSON")
  }
}

/// The Perfetto export of a session (or trace) that reads as a session, whole and streamed
/// with at most 4 events waiting: one JSON document whose every arrow id has one start and one
/// end.
private func checkPerfettoSession(_ bytes: [UInt8]) {
  for pendingLimit in [PerfettoTrace.pendingLimit, 4] {
    guard let session = try? SessionReader(bytes: bytes, name: "fuzz") else { return }
    var document: [UInt8] = []
    guard
      (try? PerfettoTrace.write(
        session: session, to: { document += $0 }, pendingLimit: pendingLimit)) != nil
    else { return }
    guard let json = try? JSONValue(parsing: String(decoding: document, as: UTF8.self)) else {
      fatalError("the Perfetto export of a session is not JSON")
    }
    var starts: [Int: Int] = [:]
    var ends: [Int: Int] = [:]
    for event in json["traceEvents"]?.arrayValue ?? [] {
      guard let id = event["id"]?.intValue else { continue }
      switch event["ph"]?.stringValue {
      case "s": starts[id, default: 0] += 1
      case "f": ends[id, default: 0] += 1
      default: break
      }
    }
    guard starts == ends, starts.values.allSatisfy({ $0 == 1 }) else {
      fatalError("a Perfetto arrow of a session without exactly one start and one end")
    }
  }
}

/// The diagrams of a session (or trace) that reads: the sequence diagram as DOT and as
/// Mermaid, the session timeline as DOT, and the state machines per reactor type as DOT.
private func checkSessionDiagrams(_ bytes: [UInt8]) {
  if let reader = try? SessionReader(bytes: bytes, name: "fuzz"),
    let sequence = try? SequenceDiagram(reader: reader)
  {
    checkDOT(sequence.dotGraph().serialized(), "sequence")
    for page in sequence.pages(eventsPerPage: 7) { checkDOT(page.serialized(), "sequence page") }
    checkMermaid(sequence.mermaid())
  }
  if let reader = try? SessionReader(bytes: bytes, name: "fuzz"),
    let timeline = try? TimelineDiagram(reader: reader)
  {
    checkDOT(timeline.dotGraph().serialized(), "session timeline")
  }
  if let session = try? SessionTrace(bytes: bytes),
    let machines = try? SessionTransitions(session: session),
    let dot = try? machines.dotGraph()
  {
    checkDOT(dot.serialized(), "session transitions")
  }
}

/// Whether a character would hide or reorder text if it reached a diagram as it is.
private func isHidden(_ scalar: Unicode.Scalar) -> Bool {
  switch scalar.value {
  case 0x09, 0x0A: false
  case 0x00...0x1F, 0x7F...0x9F, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2064,
    0x2066...0x206F, 0xFEFF:
    true
  default: false
  }
}

/// DOT text with no hidden character: every label's text was made visible.
private func checkDOT(_ dot: String, _ kind: String) {
  if dot.unicodeScalars.contains(where: isHidden) {
    fatalError("a hidden character in the \(kind) DOT")
  }
}

/// A Mermaid sequence diagram: one statement per line (no label starts a line), no hidden
/// character, and no participant deactivated while it is not active (Mermaid refuses that).
private func checkMermaid(_ text: String) {
  var active: [Substring: Int] = [:]
  for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
    if line.unicodeScalars.contains(where: isHidden) {
      fatalError("a hidden character in the Mermaid sequence diagram")
    }
    if line.isEmpty { continue }
    guard index == 0 ? line == "sequenceDiagram" : line.hasPrefix("    ") else {
      fatalError("a Mermaid line that is not a statement of the diagram")
    }
    let statement = line.dropFirst(4)
    if statement.hasPrefix("activate ") {
      active[statement.dropFirst("activate ".count), default: 0] += 1
    } else if statement.hasPrefix("deactivate ") {
      let participant = statement.dropFirst("deactivate ".count)
      guard active[participant, default: 0] > 0 else {
        fatalError("Mermaid deactivates \(participant), which is not active")
      }
      active[participant, default: 0] -= 1
    }
  }
}

/// The action-script reader on any text: a script whose steps are described, or an error
/// that is.
private func checkScript(_ text: String) {
  do {
    let script = try ReactorScript(parsing: text, name: "fuzz")
    for step in script.orderedSteps { _ = "\(step)" }
    _ = ScriptedEvents(script: script)
    _ = try? ScriptedEvents(metadata: script.metadata)
  } catch {
    _ = error.description
  }
}

/// The value writer for any JSON value: an enum case expression with no raw control
/// character and no line break, or none; and for any file name, an ASCII identifier.
private func checkValueWriter(_ text: String) {
  if let value = try? JSONValue(parsing: text),
    let expression = SwiftLiteral.enumCase(value, schema: nil)
  {
    for scalar in expression.unicodeScalars
    where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
      || scalar == "\u{2028}" || scalar == "\u{2029}"
    {
      fatalError("a raw control character in an enum case expression")
    }
  }
  let identifier = SwiftLiteral.identifier(fromFileName: text)
  guard let first = identifier.unicodeScalars.first, !("0"..."9").contains(first),
    identifier.unicodeScalars.allSatisfy({
      ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
    })
  else {
    fatalError("a file name gave an identifier that is not one")
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
