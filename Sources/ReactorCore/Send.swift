/// Emits mutations from an async effect body.
///
/// Call it like a function: `send(.setLoading(true))`. Each call reduces the mutation at once
/// (unless another state is being delivered, in which case it is queued right behind it), so
/// the next line of the body already sees it in ``Reactor/currentState``. Once the effect is
/// cancelled, calls are ignored.
@MainActor
public struct Send<Mutation: Sendable> {
  let emit: @MainActor (Mutation) -> Void

  /// Creates a sender that hands each mutation to `emit`.
  /// - Parameter emit: Receives every mutation sent.
  public init(_ emit: @escaping @MainActor (Mutation) -> Void) {
    self.emit = emit
  }

  /// Emits one mutation.
  /// - Parameter mutation: The mutation to reduce.
  public func callAsFunction(_ mutation: Mutation) {
    emit(mutation)
  }
}
