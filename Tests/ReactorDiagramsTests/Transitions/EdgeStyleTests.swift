import ReactorDiagrams
import ReactorTracing
import Testing

@Suite("Transition graph built without traces, with dashed edges")
struct EdgeStyleTests {
  /// Three states in a row: s0 → s1 exercised, s1 → s2 not.
  private func graph() throws -> TransitionGraph {
    var graph = TransitionGraph()
    graph.setReactor("Light")
    let states = try ["red", "green", "yellow"].enumerated().map { index, color in
      try graph.addState(.json(["color": .string(color)]), isInitial: index == 0)
    }
    try graph.addTransition(from: states[0], to: states[1], mutation: "go", action: "next")
    try graph.addTransition(from: states[1], to: states[2], mutation: "slow", action: "next")
    return graph
  }

  @Test func statesAndTransitionsAddedDirectlyAreTheGraph() throws {
    let graph = try graph()
    #expect(graph.states.map(\.text) == ["color=\"red\"", "color=\"green\"", "color=\"yellow\""])
    #expect(graph.states.map(\.isInitial) == [true, false, false])
    #expect(graph.transitions.map(\.mutation) == ["go", "slow"])
    #expect(graph.reactor == "Light")
  }

  @Test func onlyTheTransitionsAndStatesAskedForAreDashed() throws {
    let graph = try graph()
    let dot = try graph.dotGraph(dashedTransitions: [1], dashedStates: [2])
    func text(_ node: DOTNode.ID) -> String {
      if case .text(let text) = dot.nodes.first(where: { $0.id == node })?.label { return text }
      return ""
    }
    let styles = Dictionary(
      uniqueKeysWithValues: dot.edges.map { edge in
        ("\(text(edge.tail))→\(text(edge.head))", edge.attributes["style"])
      })
    #expect(styles[#"color="red"→color="green""#] == .some(nil))
    #expect(styles[#"color="green"→color="yellow""#] == .some("dashed"))
    let dashedNodes = dot.nodes.filter { $0.attributes["style"] == "rounded,filled,dashed" }
    #expect(dashedNodes.map { text($0.id) } == [#"color="yellow""#])
  }
}
