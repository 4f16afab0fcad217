import ReactorCore
import ReactorJSON

// Inline children: a parent state that holds a `Codable` child reactor as its content.

extension SessionRecorder {
  /// Warns, once per parent type, when the last state the parent recorded holds the state of
  /// `reactor`, a child just introduced whose type is `Encodable`: the parent encodes it
  /// inline (``SessionRecordingWarning/inlineChildReactor(parentType:childType:child:path:)``).
  ///
  /// Off the path of every event: asked at a child's introduction, it searches only for the
  /// first `Encodable` child of each parent type whose state is an object or an array, in
  /// the state the parent's lane already holds; it runs no code of the app's (the child's
  /// state is the one its introduction recorded), so the session's bytes are the same with or
  /// without it. A child is introduced when its pipeline starts, which for a row is when its
  /// view binds it, after the parent's state that holds it; one started before its parent
  /// holds it is not found.
  func checkInlineCopy<R: Reactor>(
    of reactor: R, type: String, id: Int, state: TraceHeader.State, parent: Int
  ) {
    guard R.self is any Encodable.Type, case .json(let childState) = state,
      childState.isNonEmptyContainer
    else { return }
    guard let lane = log.lane(parent), inlineCheckedTypes.insert(lane.type).inserted,
      let control = lane.control, !control.isQueuingValues,
      let parentState = control.recordedState,
      let path = Self.path(of: childState, in: parentState, at: [])
    else { return }
    warnings.append(
      .inlineChildReactor(
        parentType: lane.type, childType: type, child: id, path: StatePath(components: path)))
  }

  /// The path of the first value equal to `target` in `value` (in document order, objects'
  /// members by key), or `nil`.
  private static func path(
    of target: JSONValue, in value: JSONValue, at path: [String]
  ) -> [String]? {
    if value == target { return path }
    switch value {
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        if let found = Self.path(of: target, in: element, at: path + [String(index)]) {
          return found
        }
      }
    case .object(let object):
      for (key, member) in object.members {
        if let found = Self.path(of: target, in: member, at: path + [key]) { return found }
      }
    default:
      break
    }
    return nil
  }
}

extension JSONValue {
  /// Whether this is an object or an array with something in it: a value that is no
  /// coincidence when it turns up in another state.
  fileprivate var isNonEmptyContainer: Bool {
    switch self {
    case .array(let elements): !elements.isEmpty
    case .object(let object): !object.isEmpty
    default: false
    }
  }
}
