public import ReactorCore

/// An example's screen, rendered as text so that binding can be shown and tested anywhere,
/// Linux included.
public protocol TextView: View {
  /// An empty view, not bound yet.
  init()
  /// What the screen shows now.
  var text: String { get }
}

extension TextView {
  /// Binds a new view to `reactor` and returns how to read its text; the view lives as long
  /// as the returned function.
  /// - Parameter reactor: The reactor to bind.
  /// - Returns: The view's current text, each time it is called.
  public static func bound(to reactor: Reactor) -> @MainActor () -> String {
    let view = Self()
    view.reactor = reactor
    return { view.text }
  }
}
