import ReactorTracing

/// Transition summaries merged by key: counts and outcomes added up, the earliest first time
/// and the latest last time kept.
///
/// `summarize --merge` for sets that fit one machine; the DuckDB query and the Spark job in
/// `fleet/` apply the same rule to any number of files.
///
/// ```swift
/// var merged = SummarySet()
/// try merged.add(contentsOf: "device-1.summary.jsonl.gz")
/// try merged.add(contentsOf: "device-2.summary.jsonl.gz")
/// let bytes = merged.jsonLines
/// ```
public struct SummarySet: Sendable {
  private var index: [TransitionSummary.Key: Int] = [:]
  private var lines: [TransitionSummary] = []

  /// Creates an empty set.
  public init() {}

  /// The merged lines, sorted by key.
  public var summaries: [TransitionSummary] {
    lines.sorted { $0.key < $1.key }
  }

  /// How many distinct keys the set holds.
  public var count: Int { lines.count }

  /// Adds one line, merging it into the line with its key.
  ///
  /// - Returns: `false` (and leaves the set as it was) when a sum would overflow.
  @discardableResult
  public mutating func add(_ summary: TransitionSummary) -> Bool {
    if let found = index[summary.key] {
      return lines[found].merge(summary)
    }
    index[summary.key] = lines.count
    lines.append(summary)
    return true
  }

  /// Reads a summary file (JSON Lines, gzipped or not) and merges every line.
  ///
  /// - Parameter path: The file.
  /// - Throws: ``FleetError`` naming the file and line of the first bad line.
  public mutating func add(contentsOf path: String) throws(FleetError) {
    let bytes = try FleetFiles.contents(of: path)
    try add(jsonLines: bytes, name: path)
  }

  /// Merges every line of summary JSON Lines held in memory.
  ///
  /// - Parameters:
  ///   - bytes: The lines; blank lines are skipped.
  ///   - name: What errors call them.
  /// - Throws: ``FleetError/malformedSummary(path:line:reason:)`` or
  ///   ``FleetError/overflow(path:line:field:)``.
  public mutating func add(jsonLines bytes: [UInt8], name: String) throws(FleetError) {
    var lineNumber = 0
    var start = 0
    while start < bytes.count {
      lineNumber += 1
      var end = start
      while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
      defer { start = end + 1 }
      let line = bytes[start..<end]
      guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0d }) else { continue }
      let summary: TransitionSummary
      do {
        summary = try TransitionSummary(json: try JSONValue(parsing: line))
      } catch let problem as SummaryLineProblem {
        throw .malformedSummary(path: name, line: lineNumber, reason: problem.description)
      } catch {
        throw .malformedSummary(path: name, line: lineNumber, reason: "not JSON (\(error))")
      }
      guard add(summary) else { throw .overflow(path: name, line: lineNumber, field: "count") }
    }
  }

  /// The merged lines as JSON Lines, sorted by key.
  public var jsonLines: [UInt8] {
    Self.jsonLines(summaries)
  }

  /// Lines as JSON Lines, in the order given.
  public static func jsonLines(_ summaries: [TransitionSummary]) -> [UInt8] {
    var bytes: [UInt8] = []
    for summary in summaries {
      summary.json.write(to: &bytes)
      bytes.append(UInt8(ascii: "\n"))
    }
    return bytes
  }
}
