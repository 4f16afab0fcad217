import Foundation
import ReactorTracing
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Corpus replay of inputs whose file names are hostile (issue 40).
///
/// `replay FOLDER --jobs N --junit FILE` over names holding newlines, carriage returns,
/// escape sequences, XML markup, glob characters, option-like text and the worker's own
/// marker. Seeded, so every run makes the same names.
@Suite("reactor-trace replay of a corpus whose file names are hostile")
struct CorpusReplayHostileNameTests {
  /// Pieces of names: each breaks something if it reaches a line, an argument list, a glob
  /// or XML as it is.
  private static let pieces = [
    "\n", "\r", "\t", "\u{1B}[2K", "\u{7}", "<&>\"'", "]]>", "\u{2028}", "\u{202E}", " ", "-",
    "--jobs 9", "*", "?", "[ab]", "ü", "\u{7F}", "\u{85}", "\u{1E}reactor-trace input 0",
    "PASS ", "\\", "%0A", "{\"index\":0,\"code\":0}", "&#10;", "x", "y",
  ]

  /// The name a JUnit report gives an input: its path, but for the characters XML 1.0 cannot
  /// hold (control characters other than tab, newline and carriage return), shown as `\uXXXX`
  /// as the report's lines show them.
  private static func junitName(_ path: String) -> String {
    var name = ""
    for scalar in path.unicodeScalars {
      if scalar.value < 0x20, !["\t", "\n", "\r"].contains(scalar) {
        name +=
          "\\u00" + (scalar.value < 0x10 ? "0" : "")
          + String(scalar.value, radix: 16, uppercase: true)
      } else {
        name.unicodeScalars.append(scalar)
      }
    }
    return name
  }

  /// A small deterministic generator (SplitMix64).
  private struct Generator {
    var state: UInt64

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// What each input holds, and the outcome its line must start with.
  private enum Content: CaseIterable {
    case trace, session, edited, broken

    var outcome: String {
      switch self {
      case .trace, .session: "PASS"
      case .edited: "FAIL"
      case .broken: "ERROR"
      }
    }
  }

  @Test(arguments: [1, 2, 3])
  func everyInputGetsOneLineAndItsExactNameInTheJUnitReport(seed: UInt64) throws {
    let scratch = try ScratchDirectory()
    let folder = scratch.file("corpus")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let counter = try String(
      contentsOfFile: repositoryRoot + "/Traces/counter.trace.jsonl", encoding: .utf8)
    let contents: [Content: String] = [
      .trace: counter,
      .session: try String(
        contentsOfFile: repositoryRoot + "/Traces/taskapp.session.jsonl", encoding: .utf8),
      .edited: counter.replacingOccurrences(
        of: #""diff":[{"p":["value"],"v":1}]"#, with: #""diff":[{"p":["value"],"v":5}]"#),
      .broken: "not a trace\n",
    ]
    var random = Generator(state: seed)
    var expected: [String: Content] = [:]
    while expected.count < 14 {
      var name = ""
      for _ in 0..<(1 + Int(random.next() % 4)) {
        name += Self.pieces[Int(random.next() % UInt64(Self.pieces.count))]
      }
      let content = Content.allCases[Int(random.next() % 4)]
      name += content == .session ? ".session.jsonl" : ".trace.jsonl"
      let path = folder + "/" + name
      guard expected[path] == nil else { continue }
      try contents[content]!.write(toFile: path, atomically: false, encoding: .utf8)
      expected[path] = content
    }
    let report = scratch.file("replay.xml")
    let result = try runReactorTrace(["replay", folder, "--jobs", "3", "--junit", report])
    let failed = expected.values.contains(.edited)
    let unusable = expected.values.contains(.broken)
    #expect(result.exitCode == (failed ? 1 : unusable ? 2 : 0), "\(result.standardError)")

    // One line per input, then the total; nothing raw a terminal would act on.
    let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
      .dropLast().map(String.init)
    #expect(lines.count == expected.count + 1, "\(lines)")
    #expect(!lines.contains { TerminalText.line($0) != $0 }, "\(lines)")
    for (path, content) in expected {
      let shown = TerminalText.line(path)
      let line = lines.first {
        $0 == "\(content.outcome) \(shown)" || $0.hasPrefix("\(content.outcome) \(shown): ")
      }
      #expect(line != nil, "no \(content.outcome) line for \(shown) in \(lines)")
    }
    let matched = expected.values.count { $0 == .trace || $0 == .session }
    let diverged = expected.values.count { $0 == .edited }
    let broken = expected.values.count { $0 == .broken }
    #expect(
      lines.last
        == "\(expected.count) inputs: \(matched) matched, \(diverged) diverged, \(broken) unusable")

    // The report: valid, one case per input, each named by its exact path.
    let bytes = try Data(contentsOf: URL(fileURLWithPath: report))
    #expect(try junitSchemaProblems(bytes) == [])
    let document = try XMLDocument(data: bytes, options: [])
    let cases = try document.nodes(forXPath: "//testcase") as? [XMLElement] ?? []
    let names = cases.compactMap { $0.attribute(forName: "name")?.stringValue }
    #expect(names.sorted() == expected.keys.map(Self.junitName).sorted())
    for testCase in cases {
      guard let name = testCase.attribute(forName: "name")?.stringValue,
        let content = expected.first(where: { Self.junitName($0.key) == name })?.value
      else { continue }
      let children = testCase.children?.compactMap { ($0 as? XMLElement)?.name } ?? []
      switch content {
      case .trace, .session: #expect(children.isEmpty, "\(name)")
      case .edited: #expect(children == ["failure"], "\(name)")
      case .broken: #expect(children == ["error"], "\(name)")
      }
    }
  }
}
