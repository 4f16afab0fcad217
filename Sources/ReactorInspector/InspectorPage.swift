public import ReactorTracing

/// One self-contained HTML page for stepping through a trace or a session offline: the events,
/// the state after any of them with what changed, the causes (across reactors in a session),
/// and the transitions diagram (one per reactor type in a session).
///
/// The page needs no network: its script, styles and data are inline. The events are
/// embedded as they are stored (labels, causes, state diffs) together with a snapshot of the
/// state every so often, so that the page rebuilds the state at any step from the nearest
/// snapshot. Snapshots are taken every 64 mutations at most, and only once the diffs since the
/// last one are as large as it, so they never take more room than the diffs. Every text from
/// the trace is inserted into the page as text, never as markup.
///
/// ``write(tracePath:options:to:)`` writes the page in pieces as the trace is read, in memory
/// that does not grow with the trace; `init(tracePath:options:)` makes it in memory.
///
/// ```swift
/// let page = try InspectorPage(tracePath: "github-search.trace.jsonl")
/// try AtomicFile.write(page.html, to: "run.html")
/// ```
public struct InspectorPage: Sendable {
  /// The page.
  public private(set) var html: [UInt8]
  /// What the page holds.
  public let summary: Summary
  /// The diagrams and every reactor's diagram nodes alone, as JSON, for the live page.
  private(set) var diagramData: [UInt8]

  /// How many events the page holds.
  public var eventCount: Int { summary.eventCount }
  /// How many events the trace has; more than ``eventCount`` when it was cut.
  public var traceEventCount: Int { summary.traceEventCount }
  /// How many state snapshots the page holds, the initial state included.
  public var snapshotCount: Int { summary.snapshotCount }
  /// Why the page has no transitions diagram, or `nil` when it has one.
  public var diagramNote: String? { summary.diagramNote }
  /// What the reader noticed without failing (a torn last line, effects still running at the
  /// end); the page shows them too.
  public var warnings: [TraceWarning] { summary.warnings }

  /// Reads a trace and makes its page, in memory.
  ///
  /// - Parameters:
  ///   - tracePath: The trace file.
  ///   - options: How much to embed and how to draw the diagram.
  /// - Throws: ``InspectorError`` when the trace cannot be read.
  public init(tracePath: String, options: InspectorOptions = InspectorOptions())
    throws(InspectorError)
  {
    var html: [UInt8] = []
    var diagramData: [UInt8]? = []
    summary = try Self.write(
      tracePath: tracePath, options: options, limits: Limits(), diagramData: &diagramData
    ) { html.append(contentsOf: $0) }
    self.html = html
    self.diagramData = diagramData ?? []
  }

  /// Reads a trace and writes its page to `output`, piece by piece as the trace is read.
  ///
  /// The transitions diagrams are drawn first, from passes of their own over each reactor's
  /// lane (a trace of one reactor is a session of one), split out into an unnamed temporary
  /// file. The page's snapshots and diagram nodes wait in an unnamed temporary file while the
  /// events are written.
  ///
  /// - Parameters:
  ///   - tracePath: The trace file.
  ///   - options: How much to embed and how to draw the diagram.
  ///   - output: Takes each piece of the page in order.
  /// - Returns: What the page holds.
  /// - Throws: ``InspectorError`` when the trace cannot be read, the temporary file fails, or
  ///   `options` has an abstraction for a session of several reactor types; `output` then
  ///   holds a page cut short (or nothing, when the trace could not be split into lanes).
  @discardableResult
  public static func write(
    tracePath: String, options: InspectorOptions = InspectorOptions(),
    to output: ([UInt8]) -> Void
  ) throws(InspectorError) -> Summary {
    var unused: [UInt8]?
    return try write(
      tracePath: tracePath, options: options, limits: Limits(), diagramData: &unused, to: output)
  }

  /// How much of the page is held in memory while it is written.
  struct Limits {
    /// How many bytes of events collect before they go out.
    var piece = PageDataWriter.defaultPieceSize
    /// How many bytes of snapshots, diagram nodes and session lanes stay in memory.
    var memory = SpillStore.defaultMemoryLimit
  }

  /// Writes the page within `limits`, and the live page's diagram data when `diagramData` is
  /// not `nil`.
  static func write(
    tracePath: String, options: InspectorOptions, limits: Limits, diagramData: inout [UInt8]?,
    to output: ([UInt8]) -> Void
  ) throws(InspectorError) -> Summary {
    let reader: SessionReader
    let lanes: ReactorLanes
    do {
      reader = try SessionReader(path: tracePath)
      lanes = try ReactorLanes(path: tracePath, memoryLimit: limits.memory)
    } catch {
      throw .unreadableTrace(error)
    }
    let diagrams = try PageDiagrams(lanes: lanes, abstraction: options.abstraction)
    // A trace is named by its reactor's type, a session by its app.
    let title =
      reader.header.isTraceOfOneReactor
      ? lanes.lanes.first?.reactor.type ?? "" : reader.header.metadata["app"] ?? "session"
    output(InspectorTemplate.parts.beforeData)
    var writer = PageDataWriter(
      header: reader.header, diagrams: diagrams, limits: limits, output: output)
    do {
      while let event = try reader.next() {
        if writer.eventCount < options.maximumEvents {
          writer.add(event, skipped: reader.skippedBeforeLastEvent, output: output) {
            reader.currentState(of: $0)
          }
        } else {
          writer.skip(event)
        }
      }
    } catch {
      throw .unreadableTrace(error)
    }
    guard
      writer.finish(title: title, warnings: reader.warnings.map(\.description), output: output)
    else {
      throw .temporaryFileFailed
    }
    output(InspectorTemplate.parts.afterData)
    if diagramData != nil { diagramData = writer.diagramData() }
    return Summary(
      eventCount: writer.eventCount,
      traceEventCount: writer.eventCount + writer.skippedEventCount,
      snapshotCount: writer.snapshotCount, diagramNote: diagrams.note, warnings: reader.warnings)
  }
}
