#if canImport(SwiftUI)
public import SwiftUI
#endif

/// A two-way connection between a control and a reactor: reading it reads a state field
/// (tracked by observation), writing it sends an action.
///
/// Made by ``ObservedReactor/binding(get:send:)`` or, for reactors with a
/// ``BindableAction``, ``ObservedReactor/binding(_:)``. Where SwiftUI exists, ``swiftUI``
/// turns it into a `SwiftUI.Binding`.
@MainActor
public struct ReactorBinding<Value>: Sendable {
  private let get: @MainActor () -> Value
  private let set: @MainActor (Value) -> Void

  /// Creates a binding from a getter and a setter.
  /// - Parameters:
  ///   - get: Reads the value.
  ///   - set: Handles a new value written by the control.
  public init(get: @escaping @MainActor () -> Value, set: @escaping @MainActor (Value) -> Void) {
    self.get = get
    self.set = set
  }

  /// The field's current value; assigning it sends the binding's action.
  public var wrappedValue: Value {
    get { get() }
    nonmutating set { set(newValue) }
  }
}

#if canImport(SwiftUI)
extension ReactorBinding where Value: Sendable {
  /// The same binding as a `SwiftUI.Binding`, for controls such as `TextField` and `Toggle`.
  public var swiftUI: SwiftUI.Binding<Value> {
    let binding = self
    return SwiftUI.Binding(
      get: { MainActor.assumeIsolated { binding.wrappedValue } },
      set: { newValue in MainActor.assumeIsolated { binding.wrappedValue = newValue } }
    )
  }
}
#endif
