// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "reactor-trace",
  // `Task.immediate` (the synchronous start of async effects) and `Mutex` need these releases.
  platforms: [.macOS(.v26), .iOS(.v26), .tvOS(.v26), .watchOS(.v26), .visionOS(.v26)],
  products: [
    .library(name: "ReactorCore", targets: ["ReactorCore"]),
    .library(name: "ReactorObservation", targets: ["ReactorObservation"]),
    .library(name: "ReactorJSON", targets: ["ReactorJSON"]),
    .library(name: "ReactorSchema", targets: ["ReactorSchema"]),
    .library(name: "ReactorTracing", targets: ["ReactorTracing"]),
    .library(name: "ReactorStateMachines", targets: ["ReactorStateMachines"]),
    .library(name: "ReactorDiagrams", targets: ["ReactorDiagrams"]),
    .library(name: "ReactorReplay", targets: ["ReactorReplay"]),
    .library(name: "ReactorReplayTesting", targets: ["ReactorReplayTesting"]),
    .library(name: "ReactorExamples", targets: ["ReactorExamples"]),
    .library(name: "ReactorExport", targets: ["ReactorExport"]),
    .library(name: "ReactorInspector", targets: ["ReactorInspector"]),
    .library(name: "ReactorExploration", targets: ["ReactorExploration"]),
    .library(name: "ReactorTestGeneration", targets: ["ReactorTestGeneration"]),
    .library(name: "ReactorScript", targets: ["ReactorScript"]),
    .library(name: "ReactorShrinking", targets: ["ReactorShrinking"]),
    .library(name: "ReactorFleet", targets: ["ReactorFleet"]),
    .library(name: "ReactorComparison", targets: ["ReactorComparison"]),
    .library(name: "ReactorTraceCLI", targets: ["ReactorTraceCLI"]),
    .library(name: "ReactorLiveRecording", targets: ["ReactorLiveRecording"]),
    .library(name: "ReactorLiveServer", targets: ["ReactorLiveServer"]),
    .executable(name: "reactor-trace", targets: ["reactor-trace"]),
    .executable(name: "reactor-trace-live-example", targets: ["reactor-trace-live-example"]),
    .executable(name: "reactor-trace-serve", targets: ["reactor-trace-serve"]),
    .library(name: "ReactorQuery", targets: ["ReactorQuery"]),
    .executable(name: "reactor-trace-mcp", targets: ["reactor-trace-mcp"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
    // Without its default FoundationNetworking trait: we dump no URLRequest, and the trait
    // links libcurl and 30 more libraries into every process that replays (+7 MiB resident
    // at start, measured with the benchmark).
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3", traits: []),
    // The live server's HTTP and WebSocket: small, dependency-free, Swift 6 (issue 31).
    .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    // The MCP server's protocol (issue 45): linked only by reactor-trace-mcp.
    .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
  ],
  targets: [
    // The runtime: ReactorKit's model on Swift Concurrency. Depends on nothing.
    .target(name: "ReactorCore"),
    // Shared by the test targets: one test at a time on the main serial executor.
    .target(
      name: "ReactorTestSupport",
      dependencies: [
        "ReactorTracing",
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ],
      path: "Tests/ReactorTestSupport"
    ),
    .testTarget(
      name: "ReactorCoreTests",
      dependencies: [
        "ReactorCore",
        "ReactorExamples",
        "ReactorTestSupport",
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ]
    ),
    // ReactorKit's own unit tests, rewritten against our API (docs/semantics.md lists the
    // ones we do not reproduce exactly).
    .testTarget(
      name: "ReactorKitPortTests",
      dependencies: [
        "ReactorCore",
        "ReactorTestSupport",
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ]
    ),

    // Swift's Observation over a reactor: per-field tracking, bindings, SwiftUI where present.
    // No macro (swift-syntax would add minutes to every build).
    .target(name: "ReactorObservation", dependencies: ["ReactorCore"]),
    .testTarget(
      name: "ReactorObservationTests",
      dependencies: [
        "ReactorObservation",
        "ReactorCore",
        "ReactorExamples",
        "ReactorTestSupport",
        .product(name: "Clocks", package: "swift-clocks"),
      ]
    ),

    // JSON values, their parser and Codable coders, the canonical encoder and hash, and the
    // diff between two values. Depends on nothing; its fast paths are `package` for tracing.
    .target(name: "ReactorJSON"),
    .testTarget(
      name: "ReactorJSONTests",
      dependencies: ["ReactorJSON", "ReactorTracing", "ReactorExamples", "ReactorTestSupport"]
    ),

    // The shapes of Codable types, probed through their `init(from:)`, their fingerprints,
    // and what changed between two of them.
    .target(name: "ReactorSchema", dependencies: ["ReactorCore", "ReactorJSON"]),
    .testTarget(
      name: "ReactorSchemaTests",
      dependencies: [
        "ReactorSchema", "ReactorTracing", "ReactorCore", "ReactorExamples", "ReactorTestSupport",
      ]
    ),

    // Recording, the trace format, and reading traces. No C, no Graphviz: apps embed it.
    // Re-exports ReactorJSON and ReactorSchema, so `import ReactorTracing` brings them.
    .target(name: "ReactorTracing", dependencies: ["ReactorCore", "ReactorJSON", "ReactorSchema"]),
    .testTarget(
      name: "ReactorTracingTests",
      dependencies: [
        "ReactorTracing",
        "ReactorExamples",
        "ReactorTestSupport",
        .product(name: "Clocks", package: "swift-clocks"),
      ]
    ),

    // Replaying traces: through `reduce`, through `mutate` on a test clock, structurally, and
    // comparing two traces. Depends on tracing, not on Graphviz.
    .target(
      name: "ReactorReplay",
      dependencies: [
        "ReactorCore",
        "ReactorTracing",
        .product(name: "CustomDump", package: "swift-custom-dump"),
      ]
    ),
    .testTarget(
      name: "ReactorReplayTests",
      dependencies: [
        "ReactorReplay",
        "ReactorExamples",
        "ReactorScript",
        "ReactorTestSupport",
        .product(name: "Clocks", package: "swift-clocks"),
      ]
    ),

    // One-line replay and golden-trace assertions for Swift Testing and XCTest.
    .target(
      name: "ReactorReplayTesting",
      dependencies: ["ReactorReplay", "ReactorTracing", "ReactorCore"]
    ),
    .testTarget(
      name: "ReactorReplayTestingTests",
      dependencies: [
        "ReactorReplayTesting",
        "ReactorExamples",
        "ReactorTestSupport",
        .product(name: "Clocks", package: "swift-clocks"),
      ]
    ),

    // State machines of traces: states seen through an abstraction, the transitions between
    // them, merged over traces, and the rules that name them. No Graphviz: the fleet and the
    // exploration reach it without linking libgvc.
    .target(name: "ReactorStateMachines", dependencies: ["ReactorTracing"]),

    // Graphviz's C library (libgvc), linked in-process. The only C dependency.
    .systemLibrary(
      name: "CGraphviz",
      pkgConfig: "libgvc",
      providers: [.apt(["libgraphviz-dev"]), .brew(["graphviz"])]
    ),
    .target(
      name: "ReactorDiagrams",
      dependencies: ["ReactorTracing", "ReactorStateMachines", "CGraphviz"]
    ),
    .testTarget(
      name: "ReactorDiagramsTests",
      dependencies: [
        "ReactorDiagrams", "ReactorStateMachines", "ReactorTracing", "ReactorTestSupport",
      ],
      // Golden DOT and Mermaid files, read relative to #filePath.
      exclude: ["Golden"]
    ),

    // Traces in other tools' formats: Chrome/Perfetto JSON trace events. No Graphviz.
    .target(name: "ReactorExport", dependencies: ["ReactorTracing"]),
    .testTarget(
      name: "ReactorExportTests",
      dependencies: ["ReactorExport", "ReactorTracing", "ReactorTestSupport"]
    ),

    // The offline inspector: one self-contained HTML page per trace, with the transitions
    // diagram embedded. Its browser tests (Tests/Browser) run from ReactorInspectorTests.
    // Its page is made of the files in Page/, embedded in the code as bytes (PackageResources).
    .target(
      name: "ReactorInspector",
      dependencies: ["ReactorTracing", "ReactorStateMachines", "ReactorDiagrams"],
      resources: [
        .embedInCode("Page/event-slots.js"), .embedInCode("Page/inspector.css"),
        .embedInCode("Page/inspector.html"), .embedInCode("Page/inspector.js"),
      ]
    ),
    .testTarget(
      name: "ReactorInspectorTests",
      dependencies: [
        "ReactorInspector", "ReactorDiagrams", "ReactorStateMachines", "ReactorTracing",
        "reactor-trace",
      ]
    ),

    // The example reactors users know from ReactorKit, with their fakes and text views.
    .target(name: "ReactorExamples", dependencies: ["ReactorCore"]),
    .testTarget(
      name: "ReactorExamplesTests",
      dependencies: [
        "ReactorExamples",
        "ReactorCore",
        "ReactorTestSupport",
        .product(name: "Clocks", package: "swift-clocks"),
      ]
    ),

    // Scripts of timed actions and events: the format `record --actions` reads, the
    // `script.events` metadata, their one order and time conversion, the scripted-event feed
    // and the runner that records a script on a test clock. No Graphviz.
    .target(
      name: "ReactorScript",
      dependencies: [
        "ReactorCore", "ReactorTracing",
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ]
    ),
    .testTarget(
      name: "ReactorScriptTests",
      dependencies: [
        "ReactorScript", "ReactorExamples", "ReactorReplay", "ReactorReplayTesting",
        "ReactorTestSupport", "ReactorTracing",
        .product(name: "Clocks", package: "swift-clocks"),
      ]
    ),

    // Exploring the states a reactor reaches, breadth first on a virtual clock: shortest
    // scripts, invariants, coverage of traces. Depends on tracing for state encodings.
    .target(
      name: "ReactorExploration",
      dependencies: [
        "ReactorCore", "ReactorTracing", "ReactorScript", "ReactorStateMachines",
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ]
    ),
    .testTarget(
      name: "ReactorExplorationTests",
      dependencies: [
        "ReactorExploration", "ReactorExamples", "ReactorTestSupport", "ReactorTracing",
        "ReactorStateMachines",
        .product(name: "Clocks", package: "swift-clocks"),
      ]
    ),

    // Shrinking a run that makes something happen (a state, a broken invariant, a trap) to
    // a shortest script that still does, and the test that expects it not to. No Graphviz.
    .target(
      name: "ReactorShrinking",
      dependencies: [
        "ReactorTracing", "ReactorScript", "ReactorExploration", "ReactorTestGeneration",
      ]
    ),
    .testTarget(
      name: "ReactorShrinkingTests",
      dependencies: [
        "ReactorShrinking", "ReactorScript", "ReactorTracing", "ReactorCore", "ReactorExamples",
        "ReactorTestGeneration", "ReactorTraceCLI", "ReactorExampleRegistry", "ReactorTestSupport",
        "reactor-trace",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ]
    ),

    // Turning traces into Swift Testing or XCTest source that drives the recorded run again.
    .target(name: "ReactorTestGeneration", dependencies: ["ReactorTracing", "ReactorScript"]),
    // The generator's own tests: the committed generated tests match what it writes now,
    // and a generated test fails, naming the action and the field, against a broken reduce.
    .testTarget(
      name: "ReactorTestGenerationTests",
      dependencies: [
        "ReactorTestGeneration", "ReactorExamples", "ReactorCore", "ReactorReplayTesting",
        "ReactorTestSupport", "ReactorExampleRegistry", "ReactorTraceCLI", "ReactorTracing",
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ]
    ),
    // The tests generate-test wrote from Traces/, compiled and run as they are.
    .testTarget(
      name: "GeneratedTraceTests",
      dependencies: [
        "ReactorCore", "ReactorExamples", "ReactorReplayTesting", "ReactorTestSupport",
        "ReactorTracing",
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ]
    ),

    // Live: an app streams its recording to `reactor-trace serve` (issue 31). The recorder
    // side links no server library, no Graphviz and no FoundationNetworking: plain sockets.
    .target(
      name: "ReactorLiveRecording", dependencies: ["ReactorCore", "ReactorTracing", "ReactorScript"]),
    // The server: takes apps' streams, keeps each on disk as a trace, serves the inspector in
    // live mode (and draws its diagrams, so it links Graphviz through ReactorInspector).
    .target(
      name: "ReactorLiveServer",
      dependencies: [
        "ReactorTracing", "ReactorLiveRecording", "ReactorInspector",
        // FlyingSocks only: the HTTP layer is the server's own (LiveListener says why).
        .product(name: "FlyingSocks", package: "FlyingFox"),
      ]
    ),
    // What the executables share on the command line: one-line usage errors and standard
    // error's lines, made safe for a terminal. Only executables link it (ArgumentParser).
    .target(
      name: "ReactorCommandLine",
      dependencies: [
        "ReactorTracing", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // `reactor-trace serve` runs it: an executable of its own, so that reactor-trace (every
    // replay) links no server library (FlyingFox brings FoundationNetworking and libcurl).
    .executableTarget(
      name: "reactor-trace-serve",
      dependencies: [
        "ReactorLiveServer", "ReactorCommandLine",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // An app that streams a run of the Counter example, or the task app's session, live: the
    // end-to-end tests' app process and the demo's. It links no server library and no
    // Graphviz (a test clock and the main serial executor run the session deterministically).
    .executableTarget(
      name: "reactor-trace-live-example",
      dependencies: [
        "ReactorCore", "ReactorTracing", "ReactorExamples", "ReactorLiveRecording",
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ]
    ),
    .testTarget(
      name: "ReactorLiveTests",
      dependencies: [
        "ReactorLiveRecording", "ReactorLiveServer", "ReactorTracing", "ReactorCore",
        "ReactorExamples", "ReactorTestSupport", "reactor-trace", "reactor-trace-live-example",
        "reactor-trace-serve", .product(name: "FlyingSocks", package: "FlyingFox"),
      ]
    ),

    // Questions about traces for agents (issue 45): an index per file, events as the
    // inspector filters them, states, cause chains, a path's history; replays and diagrams
    // through `reactor-trace` in a process of its own. No protocol library: testable alone.
    .target(name: "ReactorQuery", dependencies: ["ReactorTracing"]),
    .testTarget(
      name: "ReactorQueryTests",
      dependencies: [
        "ReactorQuery", "ReactorReplay", "ReactorTracing", "reactor-trace", "reactor-trace-mcp",
      ],
      // The Python SDK's client of the server, run by MCPPythonClientTests.
      exclude: ["Python"]
    ),
    // `reactor-trace mcp` runs it: the MCP server on standard input and output, an executable
    // of its own so that no other product links the MCP SDK (swift-sdk, swift-log,
    // swift-system).
    .executableTarget(
      name: "reactor-trace-mcp",
      dependencies: [
        "ReactorQuery", "ReactorTracing", "ReactorCommandLine",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "MCP", package: "swift-sdk"),
      ]
    ),

    // Fleets: per-trace transition summaries that engines (DuckDB, Spark) merge, the
    // production state machine drawn from them, and production held against test coverage.
    // zlib (on every Linux and macOS) reads and writes `.gz`; nothing else is added.
    .systemLibrary(
      name: "CZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
    ),
    .target(
      name: "ReactorFleet",
      dependencies: ["ReactorTracing", "ReactorStateMachines", "ReactorExploration", "CZlib"]
    ),
    .testTarget(
      name: "ReactorFleetTests",
      dependencies: [
        "ReactorFleet", "ReactorStateMachines", "ReactorDiagrams", "ReactorTracing",
        "ReactorExamples",
      ]
    ),

    // What changed between two sets of runs (versions, fleets, corpora) beyond chance: per
    // transition tests over summaries, corrected for their number. No Graphviz: the CLI
    // draws its union machine through ReactorDiagrams.
    .target(
      name: "ReactorComparison",
      dependencies: ["ReactorFleet", "ReactorStateMachines", "ReactorTracing"]
    ),
    .testTarget(
      name: "ReactorComparisonTests",
      dependencies: ["ReactorComparison", "ReactorFleet", "ReactorStateMachines", "ReactorTracing"]
    ),

    // The command-line tool: commands in a library, so users can build their own
    // reactor-trace with their reactors registered, and a thin executable.
    .target(
      name: "ReactorTraceCLI",
      dependencies: [
        "ReactorCore", "ReactorTracing", "ReactorReplay", "ReactorStateMachines", "ReactorDiagrams",
        "ReactorExploration", "ReactorTestGeneration", "ReactorExport", "ReactorInspector",
        "ReactorScript", "ReactorFleet", "ReactorShrinking", "ReactorComparison",
        "ReactorLiveRecording", "ReactorCommandLine",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ]
    ),
    // The shipped binary's registry: the example reactors, with their test factories.
    .target(
      name: "ReactorExampleRegistry",
      dependencies: [
        "ReactorTraceCLI", "ReactorExamples", "ReactorTestGeneration", "ReactorTracing",
      ]
    ),
    .executableTarget(name: "reactor-trace", dependencies: ["ReactorExampleRegistry"]),
    .testTarget(
      name: "ReactorTraceCLITests",
      dependencies: [
        "ReactorTraceCLI", "reactor-trace", "ReactorCore", "ReactorTracing", "ReactorTestSupport",
        // Reads the DOT files the commands write through libgvc, as the `dot` program would,
        // so that no test needs Graphviz's programs (the set-up installs only its library).
        "ReactorDiagrams",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

    // The benchmark of docs/performance.md: `swift run -c release reactor-trace-bench`.
    // Only our own modules, so that building it adds no package. It runs the `reactor-trace`
    // built beside it for the render rows (a dependency would link the CLI and Graphviz into
    // every measured process), and `reactor-trace-serve` for the live rows, and says so if
    // either is missing.
    .executableTarget(
      name: "reactor-trace-bench",
      dependencies: [
        "ReactorCore", "ReactorTracing", "ReactorReplay", "ReactorExploration", "ReactorExamples",
        "ReactorLiveRecording",
      ],
      path: "Benchmarks/reactor-trace-bench"
    ),
    .testTarget(
      name: "ReactorTraceBenchTests",
      dependencies: ["reactor-trace-bench"]
    ),
  ]
)

for target in package.targets where target.type != .system {
  var settings = target.swiftSettings ?? []
  settings.append(.swiftLanguageMode(.v6))
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
  settings.append(.enableUpcomingFeature("MemberImportVisibility"))
  target.swiftSettings = settings
}
