/// Whether a live recording takes commands from outside the app (issue 43).
public enum LiveControl: Sendable, Hashable {
  /// It takes none, and the server refuses every command for it: the default.
  case refuse
  /// It takes commands from whoever holds the server's token, through the server: dispatch
  /// an action, send a recorded action again, jump to a recorded state (the recording then
  /// declares format 1.4, or 2.2 for a session, which may hold jumps). Each is recorded
  /// with a cause saying it came from outside the app. For debug builds.
  case accept
}
