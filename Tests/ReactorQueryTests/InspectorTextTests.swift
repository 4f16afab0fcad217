import Foundation
import ReactorTracing
import Testing

@testable import ReactorQuery

/// The `events` tool's text filter compares as the inspector's page does
/// (`value.trim().toLowerCase()` against the lowercased row text, inspector.js `filtered`).
@Suite("the text filter's case, as the inspector's")
struct InspectorTextTests {
  /// Labels and filters beyond ASCII: final sigma, dotted capital I, the Kelvin sign, sharp s,
  /// ligatures, title case, isolates, combining marks, emoji.
  static let samples: [(haystack: String, needle: String)] = [
    ("ΟΔΟΣ", "οδος"), ("ΟΔΟΣ", "οδοσ"), ("setName(ΟΔΟΣ)", "ΟΔΟΣ)"), ("ΣΑΣ ΣΟΦΟΣ", "ς σ"),
    ("İstanbul", "i̇stan"), ("İstanbul", "istanbul"), ("\u{212A}elvin", "kel"),
    ("STRASSE ẞ", "ß"), ("ﬃx", "FFI"), ("ǅemal", "ǆ"), ("ÅNGSTRÖM", "ångström"),
    ("\u{2068}Łódź\u{2069}", "łódź"), ("CAFÉ", "cafe\u{301}"), ("CAFE\u{301}", "café"),
    ("👩‍💻 Dev", "  👩‍💻 dev "), ("plain", "\u{FEFF}PLAIN\u{FEFF}"), ("Σ", "σ"), ("AΣ.", "ς."),
  ]

  @Test func lowercasingAndMatchingAgreeWithTheBrowsersJavaScript() throws {
    let node = try Self.run(
      "node",
      [
        "-e",
        """
        const samples = JSON.parse(process.argv[1]);
        console.log(JSON.stringify(samples.map(([h, n]) => [
          h.toLowerCase(), n.trim().toLowerCase(),
          h.replace(/[\\u2068\\u2069]/g, "").toLowerCase().indexOf(n.trim().toLowerCase()) >= 0])));
        """,
        String(
          decoding: try JSONSerialization.data(
            withJSONObject: Self.samples.map { [$0.haystack, $0.needle] }), as: UTF8.self),
      ])
    let expected = try #require(try JSONValue(parsing: node).arrayValue)
    #expect(expected.count == Self.samples.count)
    for (sample, answer) in zip(Self.samples, expected) {
      let row = try #require(answer.arrayValue)
      #expect(InspectorText.lowercased(sample.haystack) == row[0].stringValue, "\(sample)")
      #expect(
        String(decoding: InspectorText.needle(sample.needle), as: UTF8.self)
          == row[1].stringValue, "\(sample)")
      #expect(
        InspectorText.contains(
          ArraySlice(sample.haystack.utf8), InspectorText.needle(sample.needle))
          == row[2].boolValue, "\(sample)")
    }
  }

  @Test func theEventsToolFindsNonASCIILabelsInAnyCase() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("reactor-trace-text-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // The counter's trace with its first action's label in Greek capitals and its second's
    // with the Kelvin sign: labels are text, not read back as values.
    var lines = try String(
      contentsOfFile: repositoryRoot + "/Traces/counter.trace.jsonl", encoding: .utf8
    ).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let actions = lines.indices.filter { lines[$0].contains(#""kind":"action""#) }
    lines[actions[0]] = lines[actions[0]].replacing(
      #""label":"increase""#, with: #""label":"ΑΥΞΗΣΗ ΟΔΟΣ""#)
    lines[actions[1]] = lines[actions[1]].replacing(
      #""label":"increase""#, with: #""label":"\#u{212A}ICK""#)
    try lines.joined(separator: "\n").write(
      to: folder.appendingPathComponent("greek.trace.jsonl"), atomically: true, encoding: .utf8)
    let queries = try makeQueries(root: folder.path)
    let filters: [(String, Int?)] = [
      ("αυξηση", 1), ("αύξηση", nil), ("ΟΔΟΣ", 1), ("οδοσ", nil), ("kick", 7), ("  KiCk ", 7),
    ]
    for (text, seq) in filters {
      let answer = try await queries.answer(
        "events", ["trace": "greek.trace.jsonl", "text": .string(text), "kind": "action"])
      #expect(
        answer.structured["events"]?.arrayValue?.map { $0["seq"]?.intValue }
          == (seq.map { [$0] } ?? []), "\(text)")
    }
  }

  /// Runs a program found on the path and returns its standard output.
  static func run(_ program: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [program] + arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return String(decoding: data, as: UTF8.self)
  }
}
