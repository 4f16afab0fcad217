/// A rule that hides part of what a recording stores, for privacy: every value whose path
/// matches is replaced by the string `"<redacted>"` before it is encoded, hashed or written.
///
/// A pattern is a dotted path whose first component says where it applies (`action`,
/// `mutation`, `state`, or `*` for all three), followed by object keys or array indices as
/// they appear in the Codable encoding. `*` matches any one component, `**` any number of
/// them (including none):
///
/// ```swift
/// var options = TraceOptions()
/// options.redactions = [
///   "state.user.email",        // one field of the state
///   "action.login.password",   // the payload of the `login(password:)` case
///   "*.**.token",              // any member named `token`, anywhere
/// ]
/// ```
///
/// Labels of redacted actions and mutations are made from the redacted encoding, so a secret
/// cannot leak through a label. A type that is not Codable has no paths: when a rule applies
/// to its kind, its labels and descriptions are replaced by `<redacted>` whole.
public struct TraceRedaction: Hashable, Sendable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// What replaces a redacted value.
  public static let marker = "<redacted>"

  /// The pattern as written.
  public let pattern: String

  /// A rule from its pattern; ``TraceRecordingError/invalidRedaction(_:reason:)`` reports a
  /// malformed one when a recorder starts.
  public init(_ pattern: String) { self.pattern = pattern }

  /// A rule from a string literal.
  public init(stringLiteral pattern: String) { self.init(pattern) }

  /// The pattern.
  public var description: String { pattern }

  /// The pattern's components, or why it is malformed.
  func components() -> Result<(kinds: Set<PayloadKind>, path: [Component]), TraceRecordingError> {
    let parts = pattern.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard let first = parts.first, !pattern.isEmpty else {
      return .failure(.invalidRedaction(pattern, reason: "the pattern is empty"))
    }
    let kinds: Set<PayloadKind>
    switch first {
    case "action": kinds = [.action]
    case "mutation": kinds = [.mutation]
    case "state": kinds = [.state]
    case "*", "**": kinds = [.action, .mutation, .state]
    default:
      return .failure(
        .invalidRedaction(
          pattern, reason: "it must start with 'action', 'mutation', 'state' or '*'"))
    }
    var path: [Component] = first == "**" ? [.anyDepth] : []
    for part in parts.dropFirst() {
      switch part {
      case "": return .failure(.invalidRedaction(pattern, reason: "it has an empty component"))
      case "*": path.append(.any)
      case "**": path.append(.anyDepth)
      default: path.append(.name(part))
      }
    }
    return .success((kinds, path))
  }

  /// Which payload a rule applies to.
  package enum PayloadKind: Hashable, Sendable {
    case action, mutation, state
  }

  /// One component of a parsed pattern.
  enum Component: Hashable, Sendable {
    /// A key, or an index written in decimal.
    case name(String)
    /// Any one component.
    case any
    /// Any number of components.
    case anyDepth
  }
}
