import Foundation
import ReactorExampleRegistry
import Testing

@testable import ReactorTestGeneration
@testable import ReactorTraceCLI

/// Generated tests stay within `swift format`'s line length: long literals are cut into
/// pieces joined by `+`, and the pieces still compile to exactly the text.
@Suite struct LongLiteralTests {
  /// Texts that are long, or hold what makes a literal raw, escaped or hard to cut.
  static let texts = [
    String(repeating: "the server is unavailable; ", count: 12),
    String(repeating: ##"a "quoted" \path\ and "# \#( "##, count: 9) + #"""#,
    String(repeating: "line\nbreak\ttab\u{7}bell\u{202E}bidi ", count: 8),
    String(repeating: "e\u{301}👩‍👩‍👧 ", count: 30),
    "",
  ]

  @Test func everyPieceFitsTheWidth() {
    for text in Self.texts {
      let pieces = SwiftLiteral.pieces(text, width: 40)
      #expect(pieces.allSatisfy { $0.unicodeScalars.count <= 40 }, "\(pieces)")
      #expect((pieces.count > 1) == (SwiftLiteral.string(text).unicodeScalars.count > 40))
    }
    #expect(SwiftLiteral.pieces("short", width: 40) == [#""short""#])
  }

  @Test func piecesJoinedByPlusCompileToExactlyTheText() throws {
    var program = "var failures = 0\n"
    for (index, text) in Self.texts.enumerated() {
      let joined = SwiftLiteral.pieces(text, width: 30).joined(separator: "\n  + ")
      let bytes = Array(text.utf8).map(String.init).joined(separator: ", ")
      program += "let text\(index): String =\n  \(joined)\n"
      program += "if Array(text\(index).utf8) != [\(bytes)] as [UInt8] { failures += 1 }\n"
    }
    program += "print(failures == 0 ? \"exact\" : \"\\(failures) differ\")\n"
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("long-literals-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = directory.appendingPathComponent("main.swift").path
    try program.write(toFile: source, atomically: true, encoding: .utf8)
    let binary = directory.appendingPathComponent("literals").path
    #expect(try Self.run(["swiftc", "-Onone", source, "-o", binary]) == "")
    #expect(try Self.run([binary]) == "exact\n")
  }

  @Test(arguments: [TestGenerationOptions.Framework.swiftTesting, .xctest])
  func noGeneratedLineIsLongerThanTheLineLength(
    framework: TestGenerationOptions.Framework
  ) throws {
    for trace in ["counter", "github-search", "profile", "tasklist"] {
      let source = try TestGenerator(options: TestGenerationOptions(framework: framework))
        .source(for: [GeneratedFiles.root + "/Traces/\(trace).trace.jsonl"]) {
          ReactorRegistry.examples.testFactory(for: $0, metadata: $1)
        }
      let long = source.split(separator: "\n").filter { $0.count > 100 }
      #expect(long.isEmpty, "\(trace): \(long)")
    }
  }

  /// Runs `arguments` (the first looked up on the path) and returns its output, both streams.
  private static func run(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return output
  }

  /// The literal takes one `#` more than the longest run of them after a quote or a
  /// backslash, found in one pass (issue 40: a 59 KB run of `#`s took the fuzz target over
  /// its time limit).
  @Test func aLongRunOfHashesAfterAQuoteGetsOneHashMore() {
    let text = "a\"" + String(repeating: "#", count: 40_000) + "\\##\"#"
    let literal = SwiftLiteral.string(text)
    let hashes = String(repeating: "#", count: 40_001)
    #expect(literal.hasPrefix(hashes + "\"") && !literal.hasPrefix(hashes + "#"))
    #expect(literal.hasSuffix("\"" + hashes))
    #expect(literal.count == text.count + 2 * (40_001 + 1))
  }
}
