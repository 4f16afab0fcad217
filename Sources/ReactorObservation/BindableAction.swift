/// An action that can carry a write from a binding: add one case,
/// `case binding(BindingAction<State>)`, and apply it in `reduce`.
///
/// ```swift
/// enum Action: BindableAction {
///   case binding(BindingAction<State>)
///   case submit
/// }
///
/// func reduce(state: State, mutation: Mutation) -> State {
///   var state = state
///   switch mutation {
///   case .binding(let binding): binding.apply(to: &state)
///   case .submit: ...
///   }
///   return state
/// }
/// ```
public protocol BindableAction: Sendable {
  /// The state whose fields the action writes.
  associatedtype State

  /// Wraps a binding write into the action (the enum case itself).
  /// - Parameter action: The write.
  /// - Returns: The action carrying it.
  static func binding(_ action: BindingAction<State>) -> Self
}
