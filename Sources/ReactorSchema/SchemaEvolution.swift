public import ReactorJSON

/// How today's types relate to the ones a trace recorded: which changes keep every trace
/// replayable, which matter only to events that use a changed case, and which break every
/// trace.
///
/// ```swift
/// let evolution = SchemaEvolution(recorded: header.schema, current: TraceSchema(of: R.self))
/// evolution.breaking(in: [.mutation, .state])   // [] when replay through reduce can run
/// evolution.changes(affecting: value, of: .mutation)  // what a recorded mutation runs into
/// ```
///
/// The rules (docs/semantics.md, "Replaying traces of changed types"):
/// - a case added to `Action` or `Mutation` is compatible: recorded values never use it;
/// - a case removed, renamed or whose payload changed matters only to the recorded values that
///   use it: a trace that never does replays, one that does fails at the first such event;
///   a payload that only gained fields is tried first, since an optional or defaulted field
///   decodes from old values;
/// - a field added to `State` (anywhere in it) is compatible: states are compared on the
///   fields the trace knows, and the new field starts from the reactor's initial state;
/// - any other change to `State` (a field removed, a type changed) breaks every trace, since
///   the initial state holds it; so does a change to the `Action` or `Mutation` type as a
///   whole (it stopped being Codable, its raw values changed type).
public struct SchemaEvolution: Sendable, Hashable {
  /// One of the three types a trace describes.
  public enum Root: String, Sendable, Hashable, CaseIterable {
    /// The reactor's `Action`.
    case action = "Action"
    /// The reactor's `Mutation`.
    case mutation = "Mutation"
    /// The reactor's `State`.
    case state = "State"
  }

  /// Every change, sorted by path.
  public let changes: [SchemaChange]
  /// The schema the trace recorded.
  public let recorded: TraceSchema
  private var caseChanges: [Root: [String: [SchemaChange]]] = [:]

  /// Compares the schema a trace recorded with today's.
  /// - Parameters:
  ///   - recorded: The trace header's schema.
  ///   - current: Today's types' schema.
  public init(recorded: TraceSchema, current: TraceSchema) {
    self.recorded = recorded
    changes = current.changes(from: recorded)
    for change in changes {
      guard let root = Self.root(of: change), root != .state,
        let name = Self.caseName(of: change, in: root)
      else { continue }
      caseChanges[root, default: [:]][name, default: []].append(change)
    }
  }

  /// Whether nothing changed.
  public var isEmpty: Bool { changes.isEmpty }

  /// The changes that keep no trace replayable through code that uses `roots`.
  /// - Parameter roots: The types the replay decodes or compares.
  /// - Returns: The breaking changes to those types, sorted by path.
  public func breaking(in roots: Set<Root>) -> [SchemaChange] {
    changes.filter { change in
      guard let root = Self.root(of: change), roots.contains(root) else { return false }
      switch root {
      case .state:
        if case .fieldAdded = change.kind { return false }
        return true
      case .action, .mutation:
        return Self.caseName(of: change, in: root) == nil && !Self.isCaseAdded(change, in: root)
      }
    }
  }

  /// The fields added to `State` since the recording, which replays compare states without.
  public var addedStateFields: [SchemaChange] {
    changes.filter { change in
      if Self.root(of: change) == .state, case .fieldAdded = change.kind { return true }
      return false
    }
  }

  /// The changes that concern a recorded action or mutation value: those of the case it uses.
  /// - Parameters:
  ///   - value: The recorded value: `{"setLoading": {"_0": true}}`, or a raw value.
  ///   - root: ``Root/action`` or ``Root/mutation``.
  /// - Returns: The changes to its case (empty when the case did not change), and whether
  ///   they may still let the value decode: they only add payload fields.
  public func changes(
    affecting value: JSONValue, of root: Root
  ) -> (changes: [SchemaChange], mayDecode: Bool) {
    guard let cases = caseChanges[root], let name = caseName(of: value, in: root),
      let found = cases[name]
    else { return ([], true) }
    let mayDecode = found.allSatisfy { change in
      if case .fieldAdded = change.kind { return true }
      return false
    }
    return (found, mayDecode)
  }

  /// The cases added to `root` since the recording: candidates for a renamed case.
  public func addedCases(of root: Root) -> [String] {
    changes.compactMap { change in
      guard Self.isCaseAdded(change, in: root), case .caseAdded(let name) = change.kind else {
        return nil
      }
      return name
    }
  }

  /// The case a recorded value uses.
  private func caseName(of value: JSONValue, in root: Root) -> String? {
    switch value {
    case .object(let object) where object.count == 1:
      return object.members.first?.key
    case .string, .int, .uint, .double, .bool:
      let fingerprint = root == .action ? recorded.action : recorded.mutation
      if case .enumeration(_, _?, let cases, _)? = fingerprint.shape {
        if let match = cases.first(where: { $0.rawValue == value }) { return match.name }
      }
      if case .string(let name) = value { return name }
      return nil
    default:
      return nil
    }
  }

  private static func root(of change: SchemaChange) -> Root? {
    let end = change.path.firstIndex { $0 == "." || $0 == "[" } ?? change.path.endIndex
    return Root(rawValue: String(change.path[..<end]))
  }

  private static func isCaseAdded(_ change: SchemaChange, in root: Root) -> Bool {
    guard change.path == root.rawValue, case .caseAdded = change.kind else { return false }
    return true
  }

  /// The case a change concerns: `Mutation: case 'x' was removed` or any change under
  /// `Mutation.x`; `nil` for a change to the type as a whole or an added case.
  private static func caseName(of change: SchemaChange, in root: Root) -> String? {
    if change.path == root.rawValue {
      if case .caseRemoved(let name) = change.kind { return name }
      return nil
    }
    let prefix = root.rawValue + "."
    guard change.path.hasPrefix(prefix) else { return nil }
    let rest = change.path.dropFirst(prefix.count)
    let end = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
    return String(rest[..<end])
  }
}
