/// Where a reduce replay reads its lines: a ``TraceReader`` on the replay's own thread, or a
/// ``ReadAheadReplayReader`` that reads them on a thread of its own.
///
/// Both read, check and fail exactly as ``TraceReader/nextReplayLine()`` does, line for line.
package protocol ReplayLineSource: AnyObject {
  /// The trace's first line.
  var header: TraceHeader { get }
  /// The file's path, or the name given to bytes, as errors mention it.
  var path: String { get }
  /// The number of the line last returned, from 1 (the header).
  var lineNumber: Int { get }
  /// What was noticed so far without failing, up to the line last returned.
  var warnings: [TraceWarning] { get }
  /// The next line as a reduce replay reads it (``TraceReader/nextReplayLine()``).
  /// - Returns: The line, or `nil` after the last one.
  /// - Throws: What ``TraceReader/next()`` throws, at the line where it throws.
  func nextReplayLine() throws(TraceReadError) -> ReplayLine?
  /// The mutation ``nextReplayLine()`` returned last, whole, with its state change parsed.
  func lastMutation() -> TraceEvent.Mutation
}

extension TraceReader: ReplayLineSource {}
