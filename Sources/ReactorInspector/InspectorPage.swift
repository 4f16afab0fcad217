public import ReactorTracing

/// One self-contained HTML page for stepping through a trace offline: the events, the state
/// after any of them with what changed, the causes, and the transitions diagram.
///
/// The page needs no network: its script, styles and data are inline. The events are
/// embedded as they are stored (labels, causes, state diffs) together with a snapshot of the
/// state every so often, so that the page rebuilds the state at any step from the nearest
/// snapshot. Snapshots are taken every 64 mutations at most, and only once the diffs since the
/// last one are as large as it, so they never take more room than the diffs. Every text from
/// the trace is inserted into the page as text, never as markup.
///
/// ```swift
/// let page = try InspectorPage(tracePath: "github-search.trace.jsonl")
/// try AtomicFile.write(page.html, to: "run.html")
/// ```
public struct InspectorPage: Sendable {
  /// The page.
  public private(set) var html: [UInt8]
  /// How many events the page holds.
  public private(set) var eventCount: Int
  /// How many events the trace has; more than ``eventCount`` when it was cut.
  public private(set) var traceEventCount: Int
  /// How many state snapshots the page holds, the initial state included.
  public private(set) var snapshotCount: Int
  /// Why the page has no transitions diagram, or `nil` when it has one.
  public private(set) var diagramNote: String?
  /// What the reader noticed without failing (a torn last line, effects still running at the
  /// end); the page shows them too.
  public private(set) var warnings: [TraceWarning]

  /// Reads a trace and makes its page.
  ///
  /// - Parameters:
  ///   - tracePath: The trace file.
  ///   - options: How much to embed and how to draw the diagram.
  /// - Throws: ``InspectorError`` when the trace cannot be read.
  public init(tracePath: String, options: InspectorOptions = InspectorOptions())
    throws(InspectorError)
  {
    let diagram = TransitionsEmbedding(tracePath: tracePath, abstraction: options.abstraction)
    let reader: TraceReader
    do {
      reader = try TraceReader(path: tracePath)
    } catch {
      throw .unreadableTrace(error)
    }
    var writer = PageDataWriter(header: reader.header, diagram: diagram)
    do {
      while let event = try reader.next() {
        if writer.eventCount < options.maximumEvents {
          writer.add(
            event, stateAfter: reader.currentState, skipped: reader.skippedBeforeLastEvent)
        } else {
          writer.skip(event)
        }
      }
    } catch {
      throw .unreadableTrace(error)
    }
    let data = writer.finish(warnings: reader.warnings.map(\.description))
    html = InspectorTemplate.page(title: reader.header.reactor, data: data)
    eventCount = writer.eventCount
    traceEventCount = writer.eventCount + writer.skippedEventCount
    snapshotCount = writer.snapshotCount
    diagramNote = diagram.note
    warnings = reader.warnings
  }
}
