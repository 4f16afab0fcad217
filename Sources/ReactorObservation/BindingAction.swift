/// One write of a state field, carried by an action from a binding to `reduce`.
///
/// Two writes are equal when they target the same field with equal values.
public struct BindingAction<Root>: @unchecked Sendable {
  // `@unchecked`: key paths are immutable values but not declared `Sendable`; the written
  // value is `Sendable` (required by ``set(_:_:)``).

  /// The field written.
  public let keyPath: PartialKeyPath<Root>
  /// The value written.
  public let value: any Sendable
  private let assign: (inout Root) -> Void
  private let isEqualValue: (any Sendable) -> Bool

  /// A write of `value` to the field at `keyPath`.
  /// - Parameters:
  ///   - keyPath: The field to write.
  ///   - value: Its new value.
  /// - Returns: The write, to wrap in the reactor's action.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<Root, Value>, _ value: Value
  ) -> BindingAction {
    BindingAction(
      keyPath: keyPath,
      value: value,
      assign: { $0[keyPath: keyPath] = value },
      isEqualValue: { ($0 as? Value) == value }
    )
  }

  /// Applies the write to `state`: the helper for `reduce`.
  /// - Parameter state: The state to change.
  public func apply(to state: inout Root) {
    assign(&state)
  }

  /// Returns `state` with the write applied.
  /// - Parameter state: The state before the write.
  /// - Returns: The state after it.
  public func applied(to state: Root) -> Root {
    var state = state
    assign(&state)
    return state
  }
}

extension BindingAction {
  /// Whether `action` writes the field at `keyPath`, whatever the value: lets `reduce` react
  /// to one field, `case .binding(let write) where \State.name ~= write`.
  public static func ~= <Value>(keyPath: WritableKeyPath<Root, Value>, action: BindingAction)
    -> Bool
  {
    action.keyPath == keyPath
  }
}

extension BindingAction: Equatable {
  /// Whether both write the same field with equal values.
  public static func == (lhs: BindingAction, rhs: BindingAction) -> Bool {
    lhs.keyPath == rhs.keyPath && lhs.isEqualValue(rhs.value)
  }
}

extension BindingAction: CustomStringConvertible {
  /// `set <key path> to <value>`, as traces show the action.
  public var description: String {
    "set \(keyPath) to \(value)"
  }
}
