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
  /// The diagrams and every reactor's diagram nodes alone, as JSON, for the live page.
  private(set) var diagramData: [UInt8]

  /// Reads a trace and makes its page.
  ///
  /// - Parameters:
  ///   - tracePath: The trace file.
  ///   - options: How much to embed and how to draw the diagram.
  /// - Throws: ``InspectorError`` when the trace cannot be read.
  public init(tracePath: String, options: InspectorOptions = InspectorOptions())
    throws(InspectorError)
  {
    let reader: SessionReader
    do {
      reader = try SessionReader(path: tracePath)
    } catch {
      throw .unreadableTrace(error)
    }
    let isSession = reader.header.version.major >= 2
    let diagrams: PageDiagrams
    var title = reader.header.metadata["app"] ?? "session"
    if isSession {
      do {
        diagrams = PageDiagrams(session: try SessionTrace(contentsOf: tracePath))
      } catch {
        throw .unreadableTrace(error)
      }
    } else {
      do {
        title = try TraceReader(path: tracePath, verifyingStates: false).header.reactor
      } catch {
        throw .unreadableTrace(error)
      }
      diagrams = PageDiagrams(
        tracePath: tracePath, type: title, abstraction: options.abstraction)
    }
    var writer = PageDataWriter(header: reader.header, diagrams: diagrams)
    do {
      while let event = try reader.next() {
        if writer.eventCount < options.maximumEvents {
          writer.add(event, skipped: reader.skippedBeforeLastEvent) {
            reader.currentState(of: $0)
          }
        } else {
          writer.skip(event)
        }
      }
    } catch {
      throw .unreadableTrace(error)
    }
    let data = writer.finish(title: title, warnings: reader.warnings.map(\.description))
    html = InspectorTemplate.page(title: title, data: data)
    diagramData = writer.diagramData()
    eventCount = writer.eventCount
    traceEventCount = writer.eventCount + writer.skippedEventCount
    snapshotCount = writer.snapshotCount
    diagramNote = diagrams.note
    warnings = reader.warnings
  }
}
