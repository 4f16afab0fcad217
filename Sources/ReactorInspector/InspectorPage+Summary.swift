public import ReactorTracing

extension InspectorPage {
  /// What a page holds, as ``InspectorPage/write(tracePath:options:to:)`` reports it.
  public struct Summary: Sendable, Hashable {
    /// How many events the page holds.
    public var eventCount: Int
    /// How many events the trace has; more than ``eventCount`` when it was cut.
    public var traceEventCount: Int
    /// How many state snapshots the page holds, every reactor's initial state included.
    public var snapshotCount: Int
    /// Why the page has no transitions diagram, or `nil` when it has one.
    public var diagramNote: String?
    /// What the reader noticed without failing; the page shows them too.
    public var warnings: [TraceWarning]
  }
}
