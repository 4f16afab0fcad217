import ReactorScript
import ReactorTracing

/// The live reactors of a recorded session at one moment: their names, holders and states,
/// event by event; what addresses are resolved and made in.
struct SessionStates {
  /// Each live reactor's recorded state, when it is JSON.
  private(set) var states: [Int: JSONValue] = [:]
  /// Each reactor's type, as introduced.
  private(set) var types: [Int: String] = [:]
  /// The first reactor introduced: the one reactor of a trace.
  private(set) var first: Int?
  private var names: [String: [Int]] = [:]
  private var nameOf: [Int: String] = [:]
  private var parents: [Int: Int] = [:]
  /// The live reactors' ids.
  private var alive: Set<Int> = []
  private var rebuilt: [Int: TraceHeader.State] = [:]
  /// The fields of each reactor's state that a selector may name.
  ///
  /// Those whose value never changes in the session (`task.id`), so that the selector reaches the same reactor
  /// whichever steps a shrunk script keeps. Empty: none known, positions only.
  var stableFields: [Int: [StatePath]] = [:]

  /// The fields of each reactor's state whose value stays what it was when the reactor was
  /// introduced, for the whole of `session`.
  static func stableFields(in session: SessionTrace) -> [Int: [StatePath]] {
    var world = SessionStates()
    var fields: [Int: [(path: StatePath, value: JSONValue)]] = [:]
    for event in session.events {
      world.apply(event)
      guard let reactor = event.reactor else { continue }
      switch event.kind {
      case .introduced:
        fields[reactor] = world.states[reactor].map { StatePath.leaves(of: $0) } ?? []
      case .reactor(_, .mutation):
        let state = world.states[reactor]
        fields[reactor]?.removeAll { field in
          state.flatMap { field.path.value(in: $0) } != field.value
        }
      default: break
      }
    }
    return fields.mapValues { $0.map(\.path) }
  }

  /// Takes one event into account.
  mutating func apply(_ event: SessionEvent) {
    switch event.kind {
    case .introduced(let introduction):
      let id = introduction.reactor
      rebuilt[id] = introduction.initialState
      types[id] = introduction.type
      if first == nil { first = id }
      states[id] = Self.json(introduction.initialState)
      if let name = introduction.name {
        names[name, default: []].append(id)
        nameOf[id] = name
      }
      if let parent = introduction.parent { parents[id] = parent }
      alive.insert(id)
    case .released(let id):
      alive.remove(id)
      rebuilt[id] = nil
      states[id] = nil
      if let name = nameOf.removeValue(forKey: id) {
        names[name] = names[name]?.filter { $0 != id }
      }
    case .reactor(let id, .mutation(let mutation)):
      do {
        try rebuilt[id]?.apply(mutation.state)
      } catch {
        rebuilt[id] = nil
      }
      states[id] = rebuilt[id].flatMap(Self.json)
    case .reactor(let id, .jump(let jump)):
      rebuilt[id] = jump.state
      states[id] = Self.json(jump.state)
    default:
      break
    }
  }

  private static func json(_ state: TraceHeader.State) -> JSONValue? {
    if case .json(let value) = state { value } else { nil }
  }

  /// The reactor `address` reaches now, or `nil`.
  func reactor(at address: ReactorAddress) -> Int? {
    try? address.reactor(
      named: { names[$0] ?? [] }, ofType: reactors(ofType:), names: { names.keys.sorted() },
      state: { states[$0] }, children: { parent in alive.filter { parents[$0] == parent }.sorted() }
    )
  }

  /// The live reactors of a type, by its qualified or short name, oldest first.
  private func reactors(ofType type: String) -> [Int] {
    alive.filter { id in
      types[id].map { $0 == type || ReactorIntroduction.shortTypeName($0) == type } ?? false
    }.sorted()
  }

  /// An address that reaches `reactor` now, or `nil`.
  func address(of reactor: Int, depth: Int = 0) -> ReactorAddress? {
    guard depth < 16 else { return nil }
    if let name = nameOf[reactor], names[name]?.count == 1 {
      return ReactorAddress(name: name)
    }
    // The reactor that created it first, then every other live one, by id.
    let holders =
      (parents[reactor].map { [$0] } ?? [])
      + states.keys.sorted().filter { $0 != reactor && $0 != parents[reactor] }
    for holder in holders {
      guard let state = states[holder], let path = Self.path(to: reactor, in: state),
        let base = address(of: holder, depth: depth + 1)
      else { continue }
      for step in steps(to: reactor, at: path, in: state) {
        let address = ReactorAddress(name: base.name, steps: base.steps + [step])
        if self.reactor(at: address) == reactor { return address }
      }
    }
    // Held inline by its creator (a `Codable` row in a list's sections): a selector on a
    // stable field through the rows' own lanes, else its type and order.
    if let parent = parents[reactor], let state = states[parent],
      let base = address(of: parent, depth: depth + 1)
    {
      for step in inlineSteps(to: reactor, in: state) {
        let address = ReactorAddress(
          name: base.name, index: base.index, steps: base.steps + [step])
        if self.reactor(at: address) == reactor { return address }
      }
    }
    if let type = types[reactor] {
      for name in [ReactorIntroduction.shortTypeName(type), type] {
        guard let position = reactors(ofType: name).firstIndex(of: reactor) else { continue }
        let address = ReactorAddress(name: name, index: position)
        if self.reactor(at: address) == reactor { return address }
      }
    }
    return nil
  }

  /// Selectors that may reach `reactor` among its creator's children held inline in the
  /// creator's `state`: one for each array there with an element whose value at one of the
  /// reactor's stable fields is the reactor's own.
  private func inlineSteps(to reactor: Int, in state: JSONValue) -> [ReactorAddress.Step] {
    guard let own = states[reactor] else { return [] }
    var steps: [ReactorAddress.Step] = []
    for key in stableFields[reactor] ?? [] {
      guard let value = key.value(in: own), Self.isScalar(value) else { continue }
      for path in Self.arrays(in: state, at: [])
      where path.elements.contains(where: { key.value(in: $0) == value }) {
        steps.append(
          ReactorAddress.Step(
            path: StatePath(components: path.components),
            selector: ReactorAddress.Selector(key: key, value: value)))
      }
    }
    return steps
  }

  /// The non-empty arrays in `value`, each with its path, depth first.
  private static func arrays(
    in value: JSONValue, at path: [String]
  ) -> [(components: [String], elements: [JSONValue])] {
    switch value {
    case .array(let elements):
      guard !elements.isEmpty else { return [] }
      return [(path, elements)]
        + elements.enumerated().flatMap { arrays(in: $1, at: path + [String($0)]) }
    case .object(let object):
      return object.members.flatMap { arrays(in: $0.value, at: path + [$0.key]) }
    default:
      return []
    }
  }

  /// Steps down to `reactor`, found at `path` in a holder's `state`: a selector on the first
  /// stable field of its state that no other reactor of the same array shares, then its
  /// position.
  private func steps(
    to reactor: Int, at path: [String], in state: JSONValue
  ) -> [ReactorAddress.Step] {
    let full = StatePath(components: path)
    guard let last = path.last, Int(last) != nil else {
      return [ReactorAddress.Step(path: full)]
    }
    let arrayPath = StatePath(components: Array(path.dropLast()))
    var steps: [ReactorAddress.Step] = []
    if case .array(let elements)? = arrayPath.value(in: state), let own = states[reactor] {
      let others = elements.compactMap(Self.reference).filter { $0 != reactor }
        .compactMap { states[$0] }
      for key in stableFields[reactor] ?? [] {
        guard let value = key.value(in: own), Self.isScalar(value) else { continue }
        if !others.contains(where: { key.value(in: $0) == value }) {
          steps.append(
            ReactorAddress.Step(
              path: arrayPath, selector: ReactorAddress.Selector(key: key, value: value)))
          break
        }
      }
    }
    steps.append(ReactorAddress.Step(path: full))
    return steps
  }

  private static func isScalar(_ value: JSONValue) -> Bool {
    switch value {
    case .array, .object, .null: false
    default: true
    }
  }

  /// The path in `state` to the reference `{"reactor": id}`, depth first, or `nil`.
  private static func path(to id: Int, in state: JSONValue) -> [String]? {
    if reference(state) == id { return [] }
    switch state {
    case .object(let object):
      for (key, value) in object.members {
        if let rest = path(to: id, in: value) { return [key] + rest }
      }
    case .array(let elements):
      for (index, value) in elements.enumerated() {
        if let rest = path(to: id, in: value) { return [String(index)] + rest }
      }
    default: break
    }
    return nil
  }

  /// The id of a reference, `{"reactor": 3}`.
  private static func reference(_ value: JSONValue) -> Int? {
    guard case .object(let object) = value, object.count == 1,
      case .int(let id)? = object["reactor"]
    else { return nil }
    return Int(exactly: id)
  }
}
