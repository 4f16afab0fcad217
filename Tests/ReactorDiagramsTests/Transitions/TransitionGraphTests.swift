import Foundation
import ReactorDiagrams
import ReactorTracing
import Testing

@Suite("Transition graph")
struct TransitionGraphTests {
  private static let counter = sampleTracePath("counter")
  private static let feed = sampleTracePath("feed")

  @Test func counterWholeStateMatchesGoldenDOT() throws {
    let graph = try TransitionGraph(tracesAt: [Self.counter])

    try expectGolden(graph.dotGraph().serialized(), named: "counter-transitions.dot")
  }

  @Test func counterProjectionMatchesGoldenDOT() throws {
    let graph = try TransitionGraph(
      tracesAt: [Self.counter], abstraction: StateAbstraction(keys: ["isLoading"]))

    try expectGolden(graph.dotGraph().serialized(), named: "counter-transitions-isLoading.dot")
  }

  @Test func feedWholeStateMatchesGoldenDOT() throws {
    let graph = try TransitionGraph(tracesAt: [Self.feed])

    try expectGolden(graph.dotGraph().serialized(), named: "feed-transitions.dot")
  }

  @Test func aMutationSentByConcatAfterItsEffectEndedIsLabelledWithItsAction() throws {
    // GitHubSearch's loadNextPage is concat(just, run, just): the last mutation comes after
    // the effect ended, and after a later loadNextPage that the guard ignored.
    let graph = try TransitionGraph(
      tracesAt: [sampleTracePath("github-search")],
      abstraction: StateAbstraction(keys: ["isLoadingNextPage"]))
    let dot = try graph.dotGraph().serialized()

    #expect(dot.contains("setLoadingNextPage(false)  ← loadNextPage ×3"))
    #expect(!dot.contains("action #"))
  }

  @Test func counterMermaidMatchesGolden() throws {
    let graph = try TransitionGraph(tracesAt: [Self.counter])

    try expectGolden(graph.mermaid(), named: "counter-transitions.mmd")
  }

  @Test func sameInputGivesIdenticalDOT() throws {
    let first = try TransitionGraph(tracesAt: [Self.counter, Self.counter]).dotGraph()
    let second = try TransitionGraph(tracesAt: [Self.counter, Self.counter]).dotGraph()

    #expect(first.serialized() == second.serialized())
  }

  @Test func projectionMergesStatesThatAgreeOnTheKeys() throws {
    let graph = try TransitionGraph(
      tracesAt: [Self.counter], abstraction: StateAbstraction(keys: ["isLoading"]))

    #expect(graph.states.map(\.text) == ["isLoading=false", "isLoading=true"])
    #expect(graph.states.map(\.isInitial) == [true, false])
    #expect(graph.finalState == 0)
    #expect(graph.mutationCount == 10)
    let loops = graph.transitions.filter(\.isSelfLoop).map(\.mutation)
    #expect(loops.contains("increaseValue"))
    #expect(loops.contains(#"setAlert("Limit reached")"#))
  }

  @Test func diffsThatMissTheKeysKeepTheNodeAndDiffsThatHitThemMoveIt() throws {
    let user: (String) -> JSONValue = { name in ["name": .string(name), "age": 1] }
    let steps: [(label: String, diff: JSONValue, state: JSONValue)] = [
      ("age", ["p": ["user", "age"], "v": 2], ["user": ["name": "a", "age": 2], "items": [1]]),
      ("item", ["p": ["items", 0], "v": 5], ["user": ["name": "a", "age": 2], "items": [5]]),
      (
        "rename", ["p": ["user", "name"], "v": "b"],
        ["user": ["name": "b", "age": 2], "items": [5]]
      ),
      ("replace", ["p": ["user"], "v": user("c")], ["user": user("c"), "items": [5]]),
      ("drop", ["p": ["user"], "remove": true], ["items": [5]]),
      ("append", ["p": ["items"], "append": [6]], ["items": [5, 6]]),
      ("reset", ["p": [], "v": ["user": user("a")]], ["user": user("a")]),
    ]
    var withDiffs = try TraceFixture(initialState: ["user": user("a"), "items": [1]])
    var withSnapshots = try TraceFixture(initialState: ["user": user("a"), "items": [1]])
    withDiffs.action(1, "go")
    withSnapshots.action(1, "go")
    for step in steps {
      withDiffs.mutation(step.label, action: 1, diff: [step.diff], state: step.state)
      withSnapshots.mutation(step.label, action: 1, state: step.state)
    }
    let abstraction = StateAbstraction(keys: ["user.name"])

    var fromDiffs = TransitionGraph(abstraction: abstraction)
    try fromDiffs.add(withDiffs.reader())
    var fromSnapshots = TransitionGraph(abstraction: abstraction)
    try fromSnapshots.add(withSnapshots.reader())

    #expect(
      fromDiffs.states.map(\.text) == [
        #"user.name="a""#, #"user.name="b""#, #"user.name="c""#, "user.name=∅",
      ])
    #expect(
      fromDiffs.transitions.map { "\($0.source)→\($0.target) \($0.mutation)" } == [
        "0→0 age", "0→0 item", "0→1 rename", "1→2 replace", "2→3 drop", "3→3 append",
        "3→0 reset",
      ])
    #expect(fromDiffs == fromSnapshots)
  }

  @Test func edgesCarryMutationActionAndCount() throws {
    let graph = try TransitionGraph(
      tracesAt: [Self.counter], abstraction: StateAbstraction(keys: ["isLoading"]))

    let loading = try #require(
      graph.transitions.first { $0.mutation == "setLoading(true)" && $0.action == "increase" })
    #expect(loading.count == 2)
    #expect(loading.source == 0 && loading.target == 1)
    let decrease = try #require(graph.transitions.first { $0.action == "decrease" })
    #expect(decrease.mutation == "setLoading(true)")
    let last = try #require(graph.lastTransition)
    #expect(graph.transitions[last].mutation == "setLoading(false)")
    #expect(graph.transitions[last].action == "decrease")
  }

  @Test func streamMutationsNameTheirStream() throws {
    let graph = try TransitionGraph(tracesAt: [Self.feed])

    #expect(graph.transitions.map(\.action).contains("stream server"))
    #expect(graph.transitions.map(\.action).contains(#"load("fast", delay: 100)"#))
  }

  @Test func mergingTwoTracesSumsCounts() throws {
    let abstraction = StateAbstraction(keys: ["isLoading"])
    let once = try TransitionGraph(tracesAt: [Self.counter], abstraction: abstraction)
    let twice = try TransitionGraph(
      tracesAt: [Self.counter, Self.counter], abstraction: abstraction)

    #expect(twice.states == once.states)
    #expect(twice.transitions.map(\.count) == once.transitions.map { $0.count * 2 })
    #expect(twice.traceCount == 2)
    #expect(twice.mutationCount == 20)
  }

  @Test func tracesOfDifferentReactorsAreRefused() throws {
    var graph = try TransitionGraph(tracesAt: [Self.counter])

    let error = try #require(throws: TransitionGraphError.self) {
      try graph.add(TraceReader(path: Self.feed))
    }

    #expect(
      error
        == .differentReactors(
          expected: "ReactorExamples.CounterReactor",
          found: "ReactorTracingTests.FeedReactor", path: Self.feed))
    #expect(error.description.contains("merges traces of one reactor only"))
  }

  @Test func minimumCountDropsRareTransitions() throws {
    let graph = try TransitionGraph(
      tracesAt: [Self.counter], abstraction: StateAbstraction(keys: ["isLoading"]))

    let frequent = try graph.filtered(by: TransitionFilter(minimumCount: 2))

    #expect(frequent.transitions.allSatisfy { $0.count >= 2 })
    #expect(frequent.transitions.count == 3)
    #expect(frequent.states.count == 2)
  }

  @Test func hidingSelfLoopsKeepsOnlyChanges() throws {
    let graph = try TransitionGraph(
      tracesAt: [Self.counter], abstraction: StateAbstraction(keys: ["isLoading"]))

    let changes = try graph.filtered(by: TransitionFilter(hidesSelfLoops: true))

    #expect(!changes.transitions.isEmpty)
    #expect(changes.transitions.allSatisfy { !$0.isSelfLoop })
    #expect(changes.transitions.count < graph.transitions.count)
  }

  @Test func neighbourhoodKeepsStatesWithinHops() throws {
    let graph = try TransitionGraph(tracesAt: [Self.counter])
    let initial = try #require(graph.states.first)

    let near = try graph.filtered(by: TransitionFilter(focus: "s0", hops: 1))
    let nearByText = try graph.filtered(by: TransitionFilter(focus: initial.text, hops: 1))

    #expect(near.states.map(\.text) == [graph.states[0].text, graph.states[1].text])
    #expect(near.transitions.count == 1)
    #expect(nearByText == near)
    let wider = try graph.filtered(by: TransitionFilter(focus: "s0", hops: 2))
    #expect(wider.states.count == 3)
  }

  @Test func unknownFocusIsAnError() throws {
    let graph = try TransitionGraph(tracesAt: [Self.counter])

    #expect(throws: TransitionGraphError.unknownState("nope")) {
      try graph.filtered(by: TransitionFilter(focus: "nope"))
    }
  }

  @Test func readingStopsOnceTheGraphOutgrowsItsCollectionLimit() throws {
    var graph = TransitionGraph()
    graph.collectionLimit = DiagramSizeLimit(maximumNodes: 4, maximumEdges: 1_000)
    let error = try #require(throws: TransitionGraphError.self) {
      try graph.add(TraceReader(path: Self.counter))
    }
    #expect(error == .tooLargeToCollect(limit: graph.collectionLimit))
    #expect(error.description.contains("--key"))

    var projected = TransitionGraph(abstraction: StateAbstraction(keys: ["isLoading"]))
    projected.collectionLimit = graph.collectionLimit
    try projected.add(TraceReader(path: Self.counter))
    #expect(projected.states.count == 2)
  }

  @Test func oversizedGraphThrowsSuggestingKey() throws {
    let graph = try TransitionGraph(tracesAt: [Self.counter])
    let limit = DiagramSizeLimit(maximumNodes: 3, maximumEdges: 1_000)

    let error = try #require(throws: TransitionGraphError.self) {
      try graph.dotGraph(limit: limit)
    }

    #expect(error == .tooLarge(states: 10, transitions: 10, limit: limit))
    #expect(error.description.contains("--key"))
    #expect(throws: TransitionGraphError.self) { try graph.mermaid(limit: limit) }
  }

  @Test func svgHasOneGroupPerStateAndTransition() throws {
    let graph = try TransitionGraph(
      tracesAt: [Self.counter], abstraction: StateAbstraction(keys: ["isLoading"]))

    let svg = try renderSVG(graph.dotGraph())

    // Two states and the start dot; the transitions and the start arrow.
    #expect(svg.nodeCount == 3)
    #expect(svg.edgeCount == 4 + 1)
    #expect(svg.titles.contains("n0->n1"))
    // Edge labels start with no-break spaces that keep them off their edges.
    let texts = svg.texts.map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(texts.contains("isLoading: true"))
    #expect(texts.contains("setLoading(true)  ← increase ×2, decrease"))
    #expect(!texts.contains { $0.hasSuffix("×1") })
  }

  @Test func pngOfCounterTransitionsRenders() throws {
    let graph = try TransitionGraph(tracesAt: [Self.counter])
    let png = try GraphvizRenderer().render(graph.dotGraph(), format: .png)
    try saveForInspection(png, named: "counter-transitions.png")
    let projected = try TransitionGraph(
      tracesAt: [Self.counter], abstraction: StateAbstraction(keys: ["isLoading"]))
    try saveForInspection(
      GraphvizRenderer().render(projected.dotGraph(), format: .png),
      named: "counter-transitions-isLoading.png")

    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
  }

  @Test func hostileStatesAndLabelsCannotBreakTheDOT() throws {
    let long = String(repeating: "x{<&\"", count: 2_000)
    var fixture = try TraceFixture(initialState: ["text": ""])
    for (index, label) in (hostileLabels + [long]).enumerated() {
      fixture.action(index + 1, label)
      fixture.mutation(label, action: index + 1, state: ["text": .string(label)])
    }
    let graph = try TransitionGraph(abstraction: .wholeState).adding(fixture.reader())

    let svg = try renderSVG(graph.dotGraph())
    let mermaid = try graph.mermaid()

    #expect(svg.nodeCount == hostileLabels.count + 3)
    #expect(svg.edgeCount == hostileLabels.count + 2)
    // Each edge label reads `mutation  ← action`, the text exactly as given, after the
    // no-break spaces that keep it off its edge.
    let texts = svg.texts.map { $0.drop { $0 == " " } }
    #expect(texts.contains { $0.hasPrefix(#"say "hi" and \"bye\"  ← "#) })
    #expect(texts.contains { $0.hasPrefix(#"]; "n9" -> "n0" [label="pwned"]; "x  ← "#) })
    #expect(texts.contains { $0.hasPrefix("x{<&\"x{<&") && $0.hasSuffix("…") })
    #expect(!svg.titles.contains("n9->n0"))
    for line in mermaid.split(separator: "\n").dropFirst() {
      #expect(
        line.hasPrefix("    state \"") || line.hasPrefix("    s") || line.hasPrefix("    [*]")
          || line.hasPrefix("    class"))
      #expect(!line.dropFirst(4).dropLast().contains("\"\""))
    }
    #expect(!mermaid.contains("<"))
  }
}

extension TransitionGraph {
  fileprivate func adding(_ reader: TraceReader) throws -> Self {
    var graph = self
    try graph.add(reader)
    return graph
  }
}

@Suite("Transition graph on large traces")
struct LargeTransitionGraphTests {
  /// Set `REACTOR_TRACE_LARGE_TRACE` to a long trace's path to run it.
  private static let path = ProcessInfo.processInfo.environment["REACTOR_TRACE_LARGE_TRACE"]

  @Test(.enabled(if: path != nil, "set REACTOR_TRACE_LARGE_TRACE to a trace path"))
  func longTraceStreamsIntoASmallGraph() throws {
    let graph = try TransitionGraph(tracesAt: [Self.path!])
    let dot = try graph.dotGraph().serialized()
    #expect(graph.mutationCount > 0)
    #expect(!dot.isEmpty)
  }
}

@Suite("Transition graph pictures")
struct TransitionGraphPictureTests {
  static let examples = ["counter", "github-search", "tasklist", "profile", "feed"]

  @Test(arguments: [
    ("counter", 6), ("github-search", 6), ("tasklist", 4), ("profile", 6), ("feed", 2),
  ])
  func theDefaultAbstractionDrawsEachExampleAsASmallStateMachine(
    example: String, states: Int
  ) throws {
    let path = sampleTracePath(example)
    let graph = try TransitionGraph(
      tracesAt: [path], abstraction: StateAbstraction.inferred(fromTracesAt: [path]))

    #expect(graph.states.count == states)
    #expect(!graph.states.contains { $0.text.contains("valueUpdatedCount") })
  }

  @Test func counterByDefaultDrawsWhatItsLoadingAndValueKeysDrawPlusTheAlertAsAnEvent() throws {
    let path = sampleTracePath("counter")
    let inferred = try TransitionGraph(
      tracesAt: [path], abstraction: StateAbstraction.inferred(fromTracesAt: [path]))
    let keyed = try TransitionGraph(
      tracesAt: [path], abstraction: StateAbstraction(keys: ["isLoading", "value"]))

    #expect(inferred.states.map(\.text) == keyed.states.map(\.text))
    #expect(
      inferred.transitions.map { [$0.source, $0.target] }
        == keyed.transitions.map { [$0.source, $0.target] })
    #expect(
      inferred.transitions.flatMap(\.events) == [#"alertMessage: "Limit reached""#])
    let legend = try inferred.dotGraph().nodes.last?.label
    #expect(
      legend
        == .text(
          "How fields are drawn:\nalertMessage: pulse, drawn on the edges that fire it\n"
            + "isLoading: as is\nvalue: as is (3 values)"))
  }

  @Test func gitHubSearchDrawsQueriesAndRepositoriesByWhetherTheyAreEmpty() throws {
    let path = sampleTracePath("github-search")
    let abstraction = try StateAbstraction.inferred(fromTracesAt: [path])

    #expect(
      abstraction.rules.map { "\($0.name) \($0.abstraction.rawValue)" } == [
        "isLoadingNextPage value", "nextPage nil", "query empty", "repos empty",
      ])
    let graph = try TransitionGraph(tracesAt: [path], abstraction: abstraction)
    #expect(
      graph.states[0].fields.map(\.line) == [
        "isLoadingNextPage: false", "nextPage: nil", "query: empty", "repos: empty",
      ])
  }

  @Test func aFieldCanBeDrawnAnotherWayThanInferred() throws {
    let path = sampleTracePath("github-search")
    let graph = try TransitionGraph(
      tracesAt: [path],
      abstraction: StateAbstraction.inferred(
        fromTracesAt: [path], overrides: ["repos": .count, "query": .omitted]))

    #expect(graph.states.contains { $0.fields.map(\.line).contains("repos: 8 items") })
    #expect(!graph.states.contains { $0.text.contains("query") })
  }

  @Test func anOverrideOfAnUnknownFieldNamesTheKnownOnes() {
    #expect(throws: TransitionGraphError.unknownField("nope", known: ["isLoading", "tasks"])) {
      try StateAbstraction.inferred(
        fromTracesAt: [sampleTracePath("tasklist")], overrides: ["nope": .count])
    }
  }

  @Test func valuesAreCutByMeaningAndNilHasOneSpelling() throws {
    let path = sampleTracePath("github-search")
    let graph = try TransitionGraph(tracesAt: [path], abstraction: .wholeState)
    let lines = graph.states.flatMap { $0.fields.map(\.line) }

    #expect(lines.contains(#"repos: ["octo/reactor-1", … 2 more]"#))
    #expect(!lines.contains { $0.contains("null") || $0.contains("∅") })
    let keyed = try TransitionGraph(
      tracesAt: [path], abstraction: StateAbstraction(keys: ["nextPage"]))
    #expect(
      keyed.states.map { $0.fields[0].line } == ["nextPage: nil", "nextPage: 2", "nextPage: 3"])
  }

  @Test func aMergedGraphCountsTheTracesThatTookEachEdge() throws {
    // The whole counter trace, and its first increase alone (seq 1-6).
    let counter = sampleTracePath("counter")
    let lines = try String(contentsOfFile: counter, encoding: .utf8).split(separator: "\n")
    let start = Array((lines.prefix(7).joined(separator: "\n") + "\n").utf8)
    let abstraction = StateAbstraction(keys: ["value"])
    var graph = TransitionGraph(abstraction: abstraction)
    try graph.add(TraceReader(path: counter))
    try graph.add(TraceReader(bytes: start, name: "start"))
    var alone = TransitionGraph(abstraction: abstraction)
    try alone.add(TraceReader(bytes: start, name: "start"))
    func key(_ graph: TransitionGraph, _ transition: TransitionGraph.Transition) -> [String] {
      [
        graph.states[transition.source].text, graph.states[transition.target].text,
        transition.mutation, transition.action,
      ]
    }
    let taken = Set(alone.transitions.map { key(alone, $0) })
    #expect(!taken.isEmpty)
    for (index, transition) in graph.transitions.enumerated() {
      #expect(graph.traceCount(taking: [index]) == (taken.contains(key(graph, transition)) ? 2 : 1))
    }
    #expect(graph.traceCount(taking: graph.transitions.indices) == 2)
    // Drawn when asked, on every edge, and kept through a filter.
    let labels = try graph.filtered(by: TransitionFilter(hidesSelfLoops: true))
      .dotGraph(instanceNoun: "traces").edges.compactMap { edge -> String? in
        guard case .text(let text)? = edge.label, !text.isEmpty else { return nil }
        return text
      }
    #expect(labels.allSatisfy { $0.hasSuffix(" of 2 traces") })
    #expect(labels.contains { $0.hasSuffix("\u{A0}\u{A0}2 of 2 traces") })
    #expect(labels.contains { $0.hasSuffix("\u{A0}\u{A0}1 of 2 traces") })
    #expect(try !graph.dotGraph().serialized().contains(" of 2 traces"))
  }

  @Test func mergedTracesShowSingleCountsOnlyWhenCountsDiffer() throws {
    let counter = sampleTracePath("counter")
    let once = try TransitionGraph(tracesAt: [counter], abstraction: .wholeState)
    let twice = try TransitionGraph(tracesAt: [counter, counter], abstraction: .wholeState)
    let keyed = try TransitionGraph(
      tracesAt: [counter, counter], abstraction: StateAbstraction(keys: ["isLoading"]))

    func labels(_ graph: TransitionGraph) throws -> String {
      try graph.dotGraph().edges.compactMap { edge -> String? in
        guard case .text(let text)? = edge.label else { return nil }
        return text
      }.joined(separator: "\n")
    }
    #expect(try !labels(once).contains("×"))
    #expect(try !labels(twice).contains("×1"))
    #expect(try labels(twice).contains("×2"))
    #expect(try labels(keyed).contains("decrease ×2"))
  }

  @Test(arguments: examples)
  func noTextLeavesItsNodeAndNoEdgeLabelCrossesANode(example: String) throws {
    let path = sampleTracePath(example)
    let graph = try TransitionGraph(
      tracesAt: [path], abstraction: StateAbstraction.inferred(fromTracesAt: [path]))
    let laidOut = try LaidOutGraph(graph.dotGraph())

    #expect(laidOut.nodes.count >= graph.states.count)
    #expect(laidOut.overflowingTexts == [])
    #expect(laidOut.edgeTextsOverNodes == [])
  }
}

@Suite("Laid-out graph measurement")
struct LaidOutGraphTests {
  @Test func aLabelWiderThanItsFixedSizeNodeIsReportedAsOverflowing() throws {
    var graph = DOTGraph(nodeAttributes: ["shape": "box", "fixedsize": "true", "width": "0.3"])
    graph.addNode(label: "a label far wider than a third of an inch")

    let laidOut = try LaidOutGraph(graph)

    #expect(laidOut.nodes.count == 1)
    #expect(laidOut.nodes.first?.texts.count == 1)
    #expect(laidOut.overflowingTexts.count == 1)
  }

  @Test func anEdgeLabelOverANodeIsReported() {
    var laidOut = LaidOutGraph()
    let box = LaidOutGraph.Box(minX: 0, minY: 0, maxX: 54, maxY: 36)
    laidOut.nodes = [LaidOutGraph.Node(name: "n0", box: box, texts: [])]
    laidOut.edgeTexts = [
      LaidOutGraph.Text(
        text: "over", box: LaidOutGraph.Box(minX: 40, minY: 10, maxX: 90, maxY: 20)),
      LaidOutGraph.Text(
        text: "beside", box: LaidOutGraph.Box(minX: 60, minY: 10, maxX: 90, maxY: 20)),
    ]

    #expect(laidOut.edgeTextsOverNodes.count == 1)
  }

  @Test(arguments: TransitionGraphPictureTests.examples)
  func wholeStateGraphsKeepEdgeLabelsOffNodes(example: String) throws {
    let graph = try TransitionGraph(tracesAt: [sampleTracePath(example)])
    let laidOut = try LaidOutGraph(graph.dotGraph())

    #expect(!laidOut.edgeTexts.isEmpty)
    #expect(laidOut.overflowingTexts == [])
    #expect(laidOut.edgeTextsOverNodes == [])
  }
}

@Suite("Inferred field abstraction")
struct InferredAbstractionTests {
  @Test func fewSizesDrawAsACountManyStringsAsEmptinessAndAConstantIsLeftOut() throws {
    var fixture = try TraceFixture(initialState: ["items": [], "name": "", "mode": "fixed"])
    let steps: [(JSONValue, String)] = [
      ([1], "a"), ([1, 2], "bb"), ([1], "ccc"), ([], "dddd"), ([7], ""),
    ]
    for (index, (items, name)) in steps.enumerated() {
      fixture.action(index + 1, "step")
      fixture.mutation(
        "set", action: index + 1,
        state: ["items": items, "name": .string(name), "mode": "fixed"])
    }
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("inferred-\(UUID().uuidString).trace.jsonl").path
    try Data(fixture.bytes).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }

    let abstraction = try StateAbstraction.inferred(fromTracesAt: [path])
    let rules = Dictionary(
      uniqueKeysWithValues: abstraction.rules.map { ($0.name, $0.abstraction) })

    #expect(rules["items"] == .count)
    #expect(rules["name"] == .emptiness)
    #expect(rules["mode"] == .omitted)
    let graph = try TransitionGraph(tracesAt: [path], abstraction: abstraction)
    #expect(graph.states.first?.fields.map(\.line) == ["items: empty", "name: empty"])
    #expect(
      graph.states.contains { $0.fields.map(\.line) == ["items: 2 items", "name: non-empty"] })
  }
}
