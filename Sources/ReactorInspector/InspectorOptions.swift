public import ReactorStateMachines

/// What an ``InspectorPage`` holds and how it draws the transitions diagram.
public struct InspectorOptions: Sendable, Hashable {
  /// The most events the page holds.
  ///
  /// A longer trace is cut after this many, and the page says so. 1,000,000 unless set.
  public var maximumEvents: Int
  /// How the diagram makes states into nodes, as `render transitions` does; `nil` for the
  /// state machine inferred from the trace, `render transitions`' default.
  ///
  /// It draws the states of one reactor type: the page of a session of several types
  /// refuses it (``InspectorError/abstractionOfSeveralTypes(_:)``).
  public var abstraction: StateAbstraction?

  /// Creates options.
  ///
  /// - Parameters:
  ///   - maximumEvents: The most events the page holds.
  ///   - abstraction: How the diagram makes states into nodes; `nil` to infer it.
  public init(maximumEvents: Int = 1_000_000, abstraction: StateAbstraction? = nil) {
    self.maximumEvents = maximumEvents
    self.abstraction = abstraction
  }
}
