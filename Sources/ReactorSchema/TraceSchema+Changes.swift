extension TraceSchema {
  /// What changed in the reactor's types since `recorded` was taken, one entry per case or
  /// field added or removed, type changed, and so on, sorted by path.
  ///
  /// Type names are ignored: renaming a type, or moving it to another module, is no change.
  /// ```swift
  /// current.changes(from: recorded).map(\.description)
  /// // ["Action: case 'reset' was added", "State.count: type changed from Int to Double"]
  /// ```
  /// - Parameter recorded: The schema a trace recorded.
  /// - Returns: The changes; empty when the types decode the same JSON.
  public func changes(from recorded: TraceSchema) -> [SchemaChange] {
    var comparison = SchemaComparison()
    comparison.compare(recorded.action, action, at: "Action")
    comparison.compare(recorded.mutation, mutation, at: "Mutation")
    comparison.compare(recorded.state, state, at: "State")
    return comparison.changes.sorted {
      ($0.path, $0.description) < ($1.path, $1.description)
    }
  }
}
