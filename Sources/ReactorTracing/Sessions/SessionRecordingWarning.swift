/// Something a session recorder noticed in the app it records that the session is recorded
/// right despite, but that misleads whoever reads it: ``SessionRecorder/warnings`` lists
/// them, and `reactor-trace record` and `rerecord` print them.
public enum SessionRecordingWarning: Hashable, Sendable {
  /// A reactor's recorded state holds a child reactor inline, as its content, rather than as
  /// a ``ReactorCore/ReactorReference`` to the child's lane: a `Codable` cell reactor whose
  /// `encode(to:)` writes its task, in a list's sections.
  ///
  /// That copy is the child's state when the parent's state last changed: it goes stale as
  /// the child changes, while the child's own lane stays current. Found when the child is
  /// introduced, in the last state its parent recorded; reported once per parent type.
  /// - Parameters:
  ///   - parentType: The parent's type, module-qualified (`ReactorExamples.TodoListReactor`).
  ///   - childType: The child's type, module-qualified.
  ///   - child: The child's id in the session.
  ///   - path: Where the parent's state holds the child's state.
  case inlineChildReactor(parentType: String, childType: String, child: Int, path: StatePath)
}

extension SessionRecordingWarning: CustomStringConvertible {
  /// One line saying what was found and what to write instead.
  public var description: String {
    switch self {
    case .inlineChildReactor(let parentType, let childType, let child, let path):
      return "\(ReactorIntroduction.shortTypeName(parentType)) holds its child "
        + "\(ReactorIntroduction.shortTypeName(childType)) inline: its recorded state has "
        + "reactor \(child)'s state at \(path), a copy that goes stale as the child changes; "
        + #"hold a ReactorReference there, recorded as {"reactor": \#(child)}, the child's own "#
        + "lane (README.md, 'Recording a whole app')"
    }
  }
}
