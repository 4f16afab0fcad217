public import ReactorCore

extension ObservedReactor {
  /// A binding that reads a state field and sends an action built from each written value.
  /// - Parameters:
  ///   - keyPath: The field to read.
  ///   - action: Builds the action to send from a written value.
  /// - Returns: The binding.
  public func binding<Value: Equatable>(
    get keyPath: KeyPath<R.State, Value>, send action: @escaping (Value) -> R.Action
  ) -> ReactorBinding<Value> {
    ReactorBinding(get: { self[dynamicMember: keyPath] }, set: { self.send(action($0)) })
  }

  /// A binding that reads a state field that is not `Equatable` and sends an action built
  /// from each written value.
  /// - Parameters:
  ///   - keyPath: The field to read.
  ///   - action: Builds the action to send from a written value.
  /// - Returns: The binding.
  @_disfavoredOverload
  public func binding<Value>(
    get keyPath: KeyPath<R.State, Value>, send action: @escaping (Value) -> R.Action
  ) -> ReactorBinding<Value> {
    ReactorBinding(get: { self[dynamicMember: keyPath] }, set: { self.send(action($0)) })
  }
}

extension ObservedReactor where R.Action: BindableAction, R.Action.State == R.State {
  /// A binding that reads a state field and writes it through the reactor: each written
  /// value is sent as `.binding(.set(keyPath, value))`, which `reduce` applies with
  /// ``BindingAction/apply(to:)``.
  /// - Parameter keyPath: The field to read and write.
  /// - Returns: The binding.
  public func binding<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<R.State, Value>
  ) -> ReactorBinding<Value> {
    binding(get: keyPath) { .binding(.set(keyPath, $0)) }
  }
}
