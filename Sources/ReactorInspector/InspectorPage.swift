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
/// The page is written as the trace is read, in pieces, so that memory does not grow with
/// the trace: ``write(tracePath:options:to:)``.
///
/// ```swift
/// let page = try InspectorPage(tracePath: "github-search.trace.jsonl")
/// try AtomicFile.write(page.html, to: "run.html")
/// ```
public struct InspectorPage: Sendable {
  /// The page.
  public private(set) var html: [UInt8]
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
  /// What the page holds.
  public let summary: Summary

  /// What a page holds, as ``write(tracePath:options:to:)`` reports it.
  public struct Summary: Sendable {
    /// How many events the page holds.
    public var eventCount: Int
    /// How many events the trace has; more than ``eventCount`` when it was cut.
    public var traceEventCount: Int
    /// How many state snapshots the page holds, the initial state included.
    public var snapshotCount: Int
    /// Why the page has no transitions diagram, or `nil` when it has one.
    public var diagramNote: String?
    /// What the reader noticed without failing; the page shows them too.
    public var warnings: [TraceWarning]
  }

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
    summary = try Self.write(tracePath: tracePath, options: options) {
      html.append(contentsOf: $0)
    }
    self.html = html
  }

  /// Reads a trace and writes its page to `output`, piece by piece as the trace is read.
  ///
  /// The transitions diagram is drawn first, in a pass of its own over the trace.
  ///
  /// - Parameters:
  ///   - tracePath: The trace file.
  ///   - options: How much to embed and how to draw the diagram.
  ///   - output: Takes each piece of the page in order.
  /// - Returns: What the page holds.
  /// - Throws: ``InspectorError`` when the trace cannot be read; `output` then holds a page
  ///   cut short.
  @discardableResult
  public static func write(
    tracePath: String, options: InspectorOptions = InspectorOptions(),
    to output: ([UInt8]) -> Void
  ) throws(InspectorError) -> Summary {
    let diagram = TransitionsEmbedding(tracePath: tracePath, abstraction: options.abstraction)
    let reader: TraceReader
    do {
      reader = try TraceReader(path: tracePath)
    } catch {
      throw .unreadableTrace(error)
    }
    output(Array(InspectorPageText.beforeData.utf8))
    var writer = PageDataWriter(header: reader.header, diagram: diagram, output: output)
    do {
      while let event = try reader.next() {
        if writer.eventCount < options.maximumEvents {
          writer.add(
            event, stateAfter: reader.currentState, skipped: reader.skippedBeforeLastEvent,
            output: output)
        } else {
          writer.skip(event)
        }
      }
    } catch {
      throw .unreadableTrace(error)
    }
    guard writer.finish(warnings: reader.warnings.map(\.description), output: output) else {
      throw .temporaryFileFailed
    }
    output(Array(InspectorPageText.afterData.utf8))
    return Summary(
      eventCount: writer.eventCount, traceEventCount: writer.eventCount + writer.skippedEventCount,
      snapshotCount: writer.snapshotCount, diagramNote: diagram.note, warnings: reader.warnings)
  }
}
