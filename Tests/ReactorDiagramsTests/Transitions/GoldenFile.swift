import Foundation
import Testing

/// A sample trace shipped in `Traces/`, or a test fixture in `Tests/Fixtures/`, found relative
/// to this file.
func sampleTracePath(_ name: String, filePath: String = #filePath) -> String {
  let root = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    .appendingPathComponent("../../..").standardized
  let sample = root.appendingPathComponent("Traces/\(name).trace.jsonl").path
  return FileManager.default.fileExists(atPath: sample)
    ? sample : root.appendingPathComponent("Tests/Fixtures/\(name).trace.jsonl").path
}

/// Compares `actual` with the golden file `name` in `Tests/ReactorDiagramsTests/Golden/`;
/// with `REACTOR_TRACE_RECORD=1` in the environment, writes it instead.
func expectGolden(
  _ actual: String, named name: String, filePath: String = #filePath,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    .appendingPathComponent("../Golden/\(name)").standardized
  if ProcessInfo.processInfo.environment["REACTOR_TRACE_RECORD"] == "1" {
    try actual.write(to: url, atomically: true, encoding: .utf8)
    return
  }
  guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
    Issue.record(
      "no golden file \(url.path); run with REACTOR_TRACE_RECORD=1 to record it",
      sourceLocation: sourceLocation)
    return
  }
  #expect(
    actual == expected,
    "differs from \(name); run with REACTOR_TRACE_RECORD=1 to re-record",
    sourceLocation: sourceLocation)
}

/// Writes `bytes` to `/tmp/diagrams/name` when `REACTOR_TRACE_PNG=1` is set, for looking at.
func saveForInspection(_ bytes: [UInt8], named name: String) throws {
  guard ProcessInfo.processInfo.environment["REACTOR_TRACE_PNG"] == "1" else { return }
  let directory = URL(fileURLWithPath: "/tmp/diagrams")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  try Data(bytes).write(to: directory.appendingPathComponent(name))
}
