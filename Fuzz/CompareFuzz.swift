import ReactorComparison
import ReactorDiagrams
import ReactorFleet
import ReactorJSON
import ReactorStateMachines
import ReactorTracing

/// `compare`'s inputs, fuzzed (issue 40): summary lines that read, split into two sides by
/// the input's hash, labelled with text from the input, compared.
///
/// - A comparison is made or refused with ``ComparisonError``, never a trap.
/// - A side compared with itself shows no significant change.
/// - Swapping the sides swaps added and removed: as many significant changes each way, with
///   the same p-values.
/// - p-values and adjusted ones are between 0 and 1; each reactor's counts add up to its
///   transitions' counts.
/// - The JSON (`compare --json`) reads back as JSON; the report's lines and the change
///   diagram's DOT and Mermaid (`compare --graph`) hold no hidden character once printed; a
///   `KEY=VALUE` condition reads back as itself.
enum CompareFuzz {
  /// Checks every property that applies to `bytes`.
  static func check(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    checkCondition(String(text.prefix { $0 != "\n" }.prefix(512)))
    var set = SummarySet()
    guard (try? set.add(jsonLines: bytes, name: "fuzz")) != nil else { return }
    let lines = set.summaries
    guard !lines.isEmpty, lines.count <= 400 else { return }
    let seed = bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    var before: [TransitionSummary] = []
    var after: [TransitionSummary] = []
    for (index, line) in lines.enumerated() {
      if (seed >> UInt64(index % 64)) & 1 == 0 { before.append(line) } else { after.append(line) }
      // Some lines on both sides: the tests then have something to compare.
      if index % 3 == 0 {
        if seed & 1 == 0 { after.append(line) } else { before.append(line) }
      }
    }
    let labels = (
      before: lines.first?.key.appVersion ?? "before", after: lines.last?.key.reactor ?? "after"
    )
    // A side against itself.
    if let same = try? FleetComparison(before: lines, after: lines, labels: labels) {
      guard same.changes.isEmpty else {
        fatalError("a side compared with itself shows \(same.changes.count) significant changes")
      }
      checkOutputs(same)
    }
    guard !before.isEmpty, !after.isEmpty else { return }
    let forward: FleetComparison
    do {
      forward = try FleetComparison(before: before, after: after, labels: labels)
    } catch {
      _ = error.description
      return
    }
    checkOutputs(forward)
    guard let backward = try? FleetComparison(before: after, after: before) else {
      fatalError("a comparison made one way is refused the other way")
    }
    func count(_ comparison: FleetComparison, _ kind: TransitionChange.Kind) -> Int {
      comparison.changes.count { $0.kind == kind }
    }
    guard count(forward, .added) == count(backward, .removed),
      count(forward, .removed) == count(backward, .added),
      count(forward, .shift) == count(backward, .shift),
      count(forward, .outcome) == count(backward, .outcome)
    else {
      fatalError("swapping the sides changes which changes are significant")
    }
  }

  /// A `--before`/`--after` condition reads back from its description.
  private static func checkCondition(_ text: String) {
    guard let condition = try? ComparisonInputs.Condition(parsing: text) else { return }
    guard let again = try? ComparisonInputs.Condition(parsing: condition.description),
      again == condition
    else {
      fatalError("a metadata condition does not read back as itself: \(condition)")
    }
  }

  /// The comparison's numbers, JSON, report and diagrams.
  private static func checkOutputs(_ comparison: FleetComparison) {
    for reactor in comparison.reactors {
      let before = reactor.transitions.reduce(0) { $0 &+ $1.before }
      let after = reactor.transitions.reduce(0) { $0 &+ $1.after }
      guard before == reactor.beforeCount, after == reactor.afterCount else {
        fatalError("\(reactor.name)'s counts do not add up to its transitions' counts")
      }
      for change in reactor.changes + reactor.oneSided {
        for value in [change.pValue, change.qValue].compactMap({ $0 }) {
          guard value >= 0, value <= 1 else { fatalError("a p-value of \(value)") }
        }
      }
      checkGraph(reactor, comparison)
    }
    guard (try? JSONValue(parsing: comparison.json.serializedString)) != nil else {
      fatalError("compare --json is not JSON")
    }
    for line in comparison.report {
      for row in line.split(separator: "\n", omittingEmptySubsequences: false)
      where TerminalText.line(String(row)).unicodeScalars.contains(where: isHidden) {
        fatalError("a hidden character in compare's report once printed")
      }
    }
  }

  /// The change diagram of one reactor, as `compare --graph` draws it.
  private static func checkGraph(_ reactor: FleetComparison.Reactor, _ comparison: FleetComparison)
  {
    guard let (graph, changes) = try? reactor.unionGraph() else { return }
    var marks: [Int: TransitionChangeMark] = [:]
    for (index, change) in changes {
      let kind: TransitionChangeMark.Kind =
        switch change.kind {
        case .added: .added
        case .removed: .removed
        case .shift: .shifted(ratio: change.ratio)
        case .outcome: .outcome
        }
      marks[index] = TransitionChangeMark(kind: kind, note: change.outcome ?? "")
    }
    let title = "\(reactor.name): \(comparison.beforeLabel) → \(comparison.afterLabel)"
    if let dot = try? graph.changeDotGraph(title: title, marks: marks).serialized(),
      dot.unicodeScalars.contains(where: isHidden)
    {
      fatalError("a hidden character in compare's change DOT")
    }
    if let mermaid = try? graph.changeMermaid(marks: marks),
      mermaid.unicodeScalars.contains(where: { $0 != "\n" && isHidden($0) })
    {
      fatalError("a hidden character in compare's change Mermaid")
    }
  }

  /// A character that hides or reorders text (tabs and newlines aside).
  private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x0A: false
    case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
    default: false
    }
  }
}
