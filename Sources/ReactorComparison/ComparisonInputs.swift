public import ReactorFleet
import ReactorStateMachines
import ReactorTracing

/// The two sides of a comparison read from files: summary files (merged or not) and traces
/// and sessions, summarized on the fly under one abstraction per reactor type.
///
/// The abstraction of a type is the one its summary lines use, else the one the abstraction
/// file saves, else the one inferred from the lanes of all its reactors in the traces of
/// both sides, so that the two sides' states line up.
///
/// ```swift
/// let inputs = try ComparisonInputs(before: ["old/"], after: ["new/"])
/// let comparison = try FleetComparison(before: inputs.before, after: inputs.after)
/// ```
public struct ComparisonInputs: Sendable {
  /// A metadata condition of a split: `appVersion=3.2.0`, `platform=iOS 26`.
  public struct Condition: Sendable, Hashable, CustomStringConvertible {
    /// The metadata key; `appVersion` is the summary line's own member.
    public var key: String
    /// The value it must have.
    public var value: String

    /// Reads `KEY=VALUE`.
    ///
    /// - Throws: ``ComparisonError/malformedCondition(_:)``.
    public init(parsing text: String) throws(ComparisonError) {
      guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
        throw .malformedCondition(text)
      }
      key = String(text[..<equals])
      value = String(text[text.index(after: equals)...])
    }

    /// Whether `line` has the value.
    public func matches(_ line: TransitionSummary) -> Bool {
      key == "appVersion" ? line.key.appVersion == value : line.key.metadata[key] == value
    }

    /// `KEY=VALUE`.
    public var description: String { "\(key)=\(value)" }
  }

  /// The before side's lines, merged.
  public var before: [TransitionSummary]
  /// The after side's lines, merged.
  public var after: [TransitionSummary]
  /// How many files each side read: traces and sessions, and summary files.
  public var fileCounts: (before: Int, after: Int)
  /// Warnings about traces (torn lines, gaps), each naming its file.
  public var warnings: [String]

  /// Reads two sides.
  ///
  /// - Parameters:
  ///   - before: Files, globs and directories of the before side.
  ///   - after: The after side's.
  ///   - saved: Abstractions saved by `summarize --abstraction`, for traces.
  /// - Throws: ``ComparisonError``.
  public init(
    before: [String], after: [String], saved: AbstractionFile = AbstractionFile()
  ) throws(ComparisonError) {
    let sides = try Self.read([before, after], saved: saved, metadataKeys: [])
    self.before = sides.lines[0]
    self.after = sides.lines[1]
    fileCounts = (sides.fileCounts[0], sides.fileCounts[1])
    warnings = sides.warnings
    guard !self.before.isEmpty else { throw .emptySide("before", reason: "no transition") }
    guard !self.after.isEmpty else { throw .emptySide("after", reason: "no transition") }
  }

  /// Reads one set and splits its lines by metadata.
  ///
  /// - Parameters:
  ///   - set: Files, globs and directories.
  ///   - before: The conditions every line of the before side meets.
  ///   - after: The after side's conditions.
  ///   - saved: Abstractions saved by `summarize --abstraction`, for traces.
  /// - Throws: ``ComparisonError``; ``ComparisonError/overlappingSides(_:)`` when a line
  ///   meets both sides' conditions.
  public init(
    set: [String], before: [Condition], after: [Condition],
    saved: AbstractionFile = AbstractionFile()
  ) throws(ComparisonError) {
    let keys = Set((before + after).map(\.key)).subtracting(["appVersion"])
    let sides = try Self.read([set], saved: saved, metadataKeys: keys)
    let lines = sides.lines[0]
    var old = SummarySet()
    var new = SummarySet()
    for line in lines {
      let isBefore = before.allSatisfy { $0.matches(line) }
      let isAfter = after.allSatisfy { $0.matches(line) }
      if isBefore && isAfter {
        throw .overlappingSides(
          "\(line.key.reactor) at appVersion '\(line.key.appVersion)' "
            + line.key.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            .joined(separator: " "))
      }
      if isBefore { old.add(line) }
      if isAfter { new.add(line) }
    }
    self.before = old.summaries
    self.after = new.summaries
    fileCounts = (sides.fileCounts[0], sides.fileCounts[0])
    warnings = sides.warnings
    func reason(_ conditions: [Condition]) -> String {
      let versions = Set(lines.map(\.key.appVersion)).sorted().map { $0.isEmpty ? "(none)" : $0 }
      return "no line has " + conditions.map(\.description).joined(separator: " and ")
        + "; the set's app versions: " + versions.joined(separator: ", ")
    }
    guard !self.before.isEmpty else { throw .emptySide("before", reason: reason(before)) }
    guard !self.after.isEmpty else { throw .emptySide("after", reason: reason(after)) }
  }

  /// Reads each group of arguments into merged lines.
  private static func read(
    _ groups: [[String]], saved: AbstractionFile, metadataKeys: Set<String>
  ) throws(ComparisonError) -> (lines: [[TransitionSummary]], fileCounts: [Int], warnings: [String])
  {
    do throws(FleetError) {
      let extensions = FleetFiles.traceExtensions + FleetFiles.summaryExtensions
      var traces: [[String]] = []
      var summaries: [SummarySet] = []
      var counts: [Int] = []
      for group in groups {
        var recordings: [String] = []
        var set = SummarySet()
        let paths = try FleetFiles.expand(group, extensions: extensions)
        counts.append(paths.count)
        for path in paths {
          do {
            _ = try FleetFiles.sessionReader(at: path, verifyingStates: false)
            recordings.append(path)
          } catch .trace(.notATrace) {
            try set.add(contentsOf: path)
          }
        }
        traces.append(recordings)
        summaries.append(set)
      }
      var abstractions = saved
      var seen: [String: Set<String>] = [:]
      for set in summaries {
        for line in set.summaries {
          seen[line.key.reactor, default: []].insert(line.key.abstraction)
        }
      }
      for (reactor, texts) in seen where texts.count == 1 {
        abstractions.abstractions[reactor] = try StateAbstraction(summaryText: texts.first!)
      }
      var warnings: [String] = []
      let allTraces = traces.flatMap { $0 }
      if !allTraces.isEmpty && traces.count > 1 {
        // One abstraction per type for both sides: inferred from all their traces.
        abstractions = try Summarization(choice: .inferred(overrides: [:]), saved: abstractions)
          .summarize(allTraces, merging: true).abstractions
      }
      var lines: [[TransitionSummary]] = []
      for (recordings, var set) in zip(traces, summaries) {
        if !recordings.isEmpty {
          let result = try Summarization(
            choice: .inferred(overrides: [:]), saved: abstractions, metadataKeys: metadataKeys
          ).summarize(recordings, merging: true)
          warnings += result.warnings
          for line in result.summaries where !set.add(line) {
            throw FleetError.overflow(path: recordings[0], line: 0, field: "count")
          }
        }
        lines.append(set.summaries)
      }
      return (lines, counts, warnings)
    } catch {
      throw .fleet(error)
    }
  }
}
