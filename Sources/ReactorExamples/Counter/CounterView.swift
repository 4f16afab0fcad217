public import ReactorCore

/// The Counter's screen, rendered as text: `[-] 3 [+]`, a spinner while loading, and the
/// alerts it has shown.
///
/// Binding follows ReactorKit: each state property the view shows is mapped, de-duplicated and
/// bound to one output; the alert is a pulse, shown once per assignment.
public final class CounterView: TextView {
  /// The view's reactor and bindings.
  public let binding = ViewBinding<CounterReactor>()
  /// The value label.
  public private(set) var valueText = ""
  /// Whether the activity indicator is visible.
  public private(set) var isIndicatorVisible = false
  /// The alerts shown so far, oldest first.
  public private(set) var alerts: [String] = []

  /// An empty view; assign ``reactor`` to bind it.
  public init() {}

  /// Binds the value, the indicator and the alert.
  public func bind(reactor: CounterReactor) {
    reactor.state.map { "\($0.value)" }.removeDuplicates()
      .observe { [weak self] in self?.valueText = $0 }
      .store(in: subscriptions)
    reactor.state.map(\.isLoading).removeDuplicates()
      .observe { [weak self] in self?.isIndicatorVisible = $0 }
      .store(in: subscriptions)
    reactor.pulse(\.$alertMessage)
      .observe { [weak self] in if let message = $0 { self?.alerts.append(message) } }
      .store(in: subscriptions)
  }

  /// The user tapped `+`.
  public func tapIncrease() { reactor?.send(.increase) }
  /// The user tapped `-`.
  public func tapDecrease() { reactor?.send(.decrease) }

  /// The screen as text: `[-] 3 [+]`, then ` (loading)` while loading, then the last alert.
  public var text: String {
    var text = "[-] \(valueText) [+]"
    if isIndicatorVisible { text += " (loading)" }
    if let alert = alerts.last { text += " alert: \(alert)" }
    return text
  }
}
