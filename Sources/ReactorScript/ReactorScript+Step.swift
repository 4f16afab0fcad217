public import ReactorTracing

extension ReactorScript {
  /// One scripted input and when it is due.
  public struct Step: Sendable, Hashable {
    /// What a step feeds the reactor.
    public enum Input: Sendable, Hashable {
      /// An action sent to the reactor, as its Codable `Action` encodes it.
      case action(JSONValue)
      /// An event handed to the reactor's fakes.
      case event(JSONValue)

      /// Whether this is an action.
      public var isAction: Bool {
        if case .action = self { true } else { false }
      }
    }

    /// When, from the start of the run.
    public var time: Duration
    /// What is fed.
    public var input: Input
    /// The line of the script (or trace) it was read from; for messages.
    public var line: Int
    /// In an app's script, the reactor the action goes to; `nil` in a reactor's script.
    public var target: ReactorAddress?

    /// A step.
    public init(time: Duration, input: Input, line: Int, target: ReactorAddress? = nil) {
      self.time = time
      self.input = input
      self.line = line
      self.target = target
    }
  }
}
