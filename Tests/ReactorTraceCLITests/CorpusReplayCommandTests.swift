import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The problems a JUnit report has against the JUnit XML schema CI tools read.
///
/// The schema is Apache Ant's `JUnit.xsd`, as Windy Road publishes it and Jenkins' and
/// GitLab's parsers accept; its rules are checked on the parsed report: the
/// elements where the schema allows them, their required attributes, the attributes' types
/// (integers, decimals, the ISO 8601 timestamp without a zone), and counts that add up.
/// Returns the problems found; none for a valid report.
func junitSchemaProblems(_ bytes: Data) throws -> [String] {
  let document = try XMLDocument(data: bytes, options: [])
  var problems: [String] = []
  func attributes(_ element: XMLElement) -> [String: String] {
    Dictionary(
      uniqueKeysWithValues: (element.attributes ?? []).map { ($0.name ?? "", $0.stringValue ?? "") }
    )
  }
  func check(
    _ element: XMLElement, required: [String], allowed: Set<String>, integers: [String] = [],
    decimals: [String] = []
  ) {
    let present = attributes(element)
    for name in required where present[name] == nil {
      problems.append("<\(element.name ?? "")> lacks \(name)")
    }
    for name in present.keys where !allowed.contains(name) {
      problems.append("<\(element.name ?? "")> has \(name), which the schema does not allow")
    }
    for name in integers {
      if let value = present[name], Int(value) == nil || Int(value)! < 0 {
        problems.append("<\(element.name ?? "")> \(name)=\(value) is not a count")
      }
    }
    for name in decimals {
      if let value = present[name], value.wholeMatch(of: /-?[0-9]+(\.[0-9]+)?/) == nil {
        problems.append("<\(element.name ?? "")> \(name)=\(value) is not an xs:decimal")
      }
    }
  }
  guard let root = document.rootElement(), root.name == "testsuites" else {
    return ["the root is not <testsuites>"]
  }
  check(
    root, required: [], allowed: ["name", "tests", "failures", "errors", "time", "disabled"],
    integers: ["tests", "failures", "errors"], decimals: ["time"])
  let suites = root.children?.compactMap { $0 as? XMLElement } ?? []
  if suites.contains(where: { $0.name != "testsuite" }) {
    problems.append("<testsuites> holds something other than <testsuite>")
  }
  for suite in suites where suite.name == "testsuite" {
    check(
      suite, required: ["name", "tests", "failures", "errors", "time", "timestamp", "hostname"],
      allowed: [
        "name", "tests", "failures", "errors", "time", "timestamp", "hostname", "id", "package",
        "skipped", "disabled",
      ], integers: ["tests", "failures", "errors", "skipped", "id"], decimals: ["time"])
    let suiteAttributes = attributes(suite)
    if let timestamp = suiteAttributes["timestamp"],
      timestamp.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}/) == nil
    {
      problems.append("timestamp \(timestamp) is not ISO 8601 without a zone")
    }
    let children = suite.children?.compactMap { $0 as? XMLElement } ?? []
    // properties?, testcase*, system-out, system-err: in that order.
    let order = children.map(\.name!)
    let expected =
      (order.first == "properties" ? ["properties"] : [])
      + Array(repeating: "testcase", count: order.count { $0 == "testcase" })
      + ["system-out", "system-err"]
    if order != expected { problems.append("<testsuite> children out of order: \(order)") }
    var failures = 0
    var errors = 0
    let cases = children.filter { $0.name == "testcase" }
    for testCase in cases {
      check(
        testCase, required: ["name", "classname", "time"], allowed: ["name", "classname", "time"],
        decimals: ["time"])
      for child in testCase.children?.compactMap({ $0 as? XMLElement }) ?? [] {
        switch child.name {
        case "failure", "error":
          check(child, required: ["type"], allowed: ["type", "message"])
          if child.name == "failure" { failures += 1 } else { errors += 1 }
        case "skipped", "system-out", "system-err": break
        default: problems.append("<testcase> holds <\(child.name ?? "")>")
        }
      }
    }
    if suiteAttributes["tests"] != String(cases.count) {
      problems.append("tests does not count the cases")
    }
    if suiteAttributes["failures"] != String(failures) {
      problems.append("failures does not add up")
    }
    if suiteAttributes["errors"] != String(errors) { problems.append("errors does not add up") }
  }
  return problems
}

@Suite("reactor-trace replay of a corpus, end to end")
struct CorpusReplayCommandTests {
  /// A corpus: two traces, a session, one edited trace that diverges and one that is no
  /// trace.
  private func corpus(in scratch: borrowing ScratchDirectory) throws -> String {
    let folder = scratch.file("corpus")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for name in ["counter.trace.jsonl", "github-search.trace.jsonl", "taskapp.session.jsonl"] {
      try FileManager.default.copyItem(
        atPath: repositoryRoot + "/Traces/" + name, toPath: folder + "/" + name)
    }
    let original = try String(
      contentsOfFile: repositoryRoot + "/Traces/counter.trace.jsonl", encoding: .utf8)
    try original.replacingOccurrences(
      of: #""diff":[{"p":["value"],"v":1}]"#, with: #""diff":[{"p":["value"],"v":5}]"#
    ).write(toFile: folder + "/edited.trace.jsonl", atomically: true, encoding: .utf8)
    try "not a trace\n".write(
      toFile: folder + "/broken.trace.jsonl", atomically: true, encoding: .utf8)
    return folder
  }

  @Test func aFolderReplaysEachInputOnALineWithATotalAndExitsOneOnADivergence() throws {
    let scratch = try ScratchDirectory()
    let folder = try corpus(in: scratch)
    let result = try runReactorTrace(["replay", folder, "--jobs", "2"])
    #expect(result.exitCode == 1, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.count == 6)
    #expect(lines[0].hasPrefix("ERROR \(folder)/broken.trace.jsonl: "))
    #expect(lines[1] == "PASS \(folder)/counter.trace.jsonl")
    #expect(lines[2].hasPrefix("FAIL \(folder)/edited.trace.jsonl: "))
    #expect(lines[2].contains("after event 4 does not match its hash"))
    #expect(lines[3] == "PASS \(folder)/github-search.trace.jsonl")
    #expect(lines[4] == "PASS \(folder)/taskapp.session.jsonl")
    #expect(lines[5] == "5 inputs: 3 matched, 1 diverged, 1 unusable")
  }

  @Test func globsAndFilesTogetherReplayEachOnceAndExitZeroWhenAllMatch() throws {
    let result = try runReactorTrace([
      "replay", "Traces/*.trace.jsonl", "Traces/counter.trace.jsonl",
      "Traces/taskapp.session.jsonl",
      "--mode", "reduce",
    ])
    #expect(result.exitCode == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardOutput.hasSuffix("5 inputs: 5 matched, 0 diverged, 0 unusable\n"))
  }

  @Test func theJUnitReportHasACasePerInputAndValidatesAgainstTheSchema() throws {
    let scratch = try ScratchDirectory()
    let folder = try corpus(in: scratch)
    let report = scratch.file("replay.xml")
    let result = try runReactorTrace(["replay", folder, "--junit", report])
    #expect(result.exitCode == 1)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: report))
    #expect(try junitSchemaProblems(bytes) == [])
    let document = try XMLDocument(data: bytes, options: [])
    let cases = try document.nodes(forXPath: "//testcase") as? [XMLElement] ?? []
    #expect(cases.count == 5)
    let failure = try #require(
      try document.nodes(forXPath: "//testcase[failure]").first as? XMLElement)
    #expect(failure.attribute(forName: "name")?.stringValue == folder + "/edited.trace.jsonl")
    let message = try document.nodes(forXPath: "//failure/@message").first?.stringValue ?? ""
    #expect(message.contains("after event 4 does not match its hash"))
    #expect(try document.nodes(forXPath: "//error/@type").first?.stringValue == "unusable input")
  }

  @Test func theSchemaCheckRefusesAReportThatBreaksItsRules() throws {
    let bad = Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <testsuites><testsuite name="x" tests="2" failures="0" errors="0" time="1s" \
      timestamp="2026-12-06" hostname="h"><testcase name="a"><failure/></testcase>\
      <system-out/><system-err/></testsuite></testsuites>
      """.utf8)
    let problems = try junitSchemaProblems(bad)
    #expect(problems.contains("<testcase> lacks classname"))
    #expect(problems.contains("<failure> lacks type"))
    #expect(problems.contains("<testsuite> time=1s is not an xs:decimal"))
    #expect(problems.contains("tests does not count the cases"))
  }

  @Test func optionsOfOneInputAreRefusedForACorpus() throws {
    let result = try runReactorTrace(["replay", "Traces/", "--steps"])
    #expect(result.exitCode == 64)
    #expect(result.standardError.contains("replay one input; give one trace"))
  }
}
