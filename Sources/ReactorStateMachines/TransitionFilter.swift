/// Which transitions of a ``TransitionGraph`` to keep.
///
/// ```swift
/// var filter = TransitionFilter()
/// filter.minimumCount = 2
/// filter.hidesSelfLoops = true
/// filter.focus = "isLoading=true"
/// filter.hops = 1
/// let small = try graph.filtered(by: filter)
/// ```
public struct TransitionFilter: Sendable, Hashable {
  /// Transitions seen fewer times are dropped.
  public var minimumCount: Int

  /// Whether transitions that leave the state unchanged are dropped.
  public var hidesSelfLoops: Bool

  /// A state whose neighbourhood alone is kept: its id (`s3`) or its full text (the
  /// tooltip's text); `nil` keeps every state.
  public var focus: String?

  /// With ``focus``: how many transitions, in either direction, a kept state may be from it.
  public var hops: Int

  /// Creates a filter; the defaults keep everything.
  ///
  /// - Parameters:
  ///   - minimumCount: Transitions seen fewer times are dropped.
  ///   - hidesSelfLoops: Whether to drop transitions that leave the state unchanged.
  ///   - focus: A state whose neighbourhood alone is kept.
  ///   - hops: The neighbourhood's radius.
  public init(
    minimumCount: Int = 1, hidesSelfLoops: Bool = false, focus: String? = nil, hops: Int = 1
  ) {
    self.minimumCount = minimumCount
    self.hidesSelfLoops = hidesSelfLoops
    self.focus = focus
    self.hops = hops
  }
}
