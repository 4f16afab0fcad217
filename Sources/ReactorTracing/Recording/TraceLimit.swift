/// How much of a run a recording keeps.
public enum TraceLimit: Hashable, Sendable {
  /// Every event.
  case unlimited
  /// The first `n` events; later ones are counted as dropped in the end line.
  case firstEvents(Int)
  /// A rolling window of the last `n` events. The trace starts with the state before the
  /// window's first event and says how many events came before it
  /// (``TraceHeader/window``). A file recording rewrites the window atomically at every
  /// flush, so the file on disk always holds a complete, readable window.
  case lastEvents(Int)
}
