import CGraphviz
import Foundation

/// The process-wide gate to libgvc: one lock, two lazily created contexts (one with every
/// plugin, one without text shaping), and the messages that Graphviz reports during the
/// current call.
///
/// libgvc is not thread-safe even with one context per thread, so every call into it,
/// context creation included, happens inside ``render(dot:engine:format:textMeasurement:)``
/// under `lock`.
final class GraphvizRuntime: @unchecked Sendable {
  // @unchecked Sendable: `context`, `estimatingContext` and `messages` are read and written
  // only while `lock` is held. Graphviz calls `record(_:)` from inside libgvc calls made
  // under that same lock.
  //
  // The lock is an `NSLock` (a pthread mutex), not `Synchronization.Mutex`: on Linux `Mutex`
  // waits on a futex through atomics in the standard library, which is not built for
  // ThreadSanitizer, so TSan saw no ordering between one render's unlock and the next one's
  // lock and reported these accesses as races. It intercepts pthread mutexes.

  /// A context that may not exist: not created yet, or not creatable.
  private enum OptionalContext {
    case notCreated
    case unavailable
    case created(OpaquePointer)
  }

  /// The only instance; libgvc's state is global.
  static let shared = GraphvizRuntime()

  /// The formats that Graphviz's core plugin renders without Pango.
  private static let formatsWithoutTextShaping: Set<String> = [
    "svg", "dot", "gv", "canon", "xdot", "plain", "plain-ext", "json", "json0",
  ]

  private let lock = NSLock()
  private var context: OpaquePointer?
  private var estimatingContext = OptionalContext.notCreated
  private var messages = ""

  private init() {}

  /// Parses, lays out and renders `dot`, freeing everything libgvc allocated for it.
  ///
  /// Messages Graphviz reports during a successful render come back as warnings; so does
  /// what the cairo plugin (PNG, PDF) prints straight to standard error.
  func render(
    dot: String, engine: LayoutEngine, format: OutputFormat, textMeasurement: TextMeasurement
  ) throws(GraphvizError) -> GraphvizOutput {
    lock.lock()
    defer { lock.unlock() }
    let isCairo = !Self.formatsWithoutTextShaping.contains(format.rawValue)
    let context = preparedContext(estimatingText: textMeasurement == .estimated && !isCairo)
    guard let graph = dot.withCString({ cgraphviz_read($0) }) else {
      throw .invalidDOT(message: takeMessages(orIfNone: "the text contains no graph"))
    }
    defer { agclose(graph) }
    guard agerrors() == 0 else {
      throw .invalidDOT(message: takeMessages())
    }

    let layoutStatus = cgraphviz_layout(context, graph, engine.rawValue)
    defer { gvFreeLayout(context, graph) }
    guard layoutStatus == 0, agerrors() == 0 else {
      throw .layoutFailed(engine: engine, message: takeMessages())
    }

    var data: UnsafeMutablePointer<CChar>?
    var length = 0
    var printed = ""
    let renderStatus: Int32
    if isCairo {
      // Graphviz's cairo plugin prints `(null): graph is too large…` with no error level.
      let isGraphvizMessage: (Substring) -> Bool = {
        $0.hasPrefix("(null): ") || $0.hasPrefix("Warning: ")
      }
      (renderStatus, printed) = StandardErrorCapture.capturing(lines: isGraphvizMessage) {
        cgraphviz_render_data(context, graph, format.rawValue, &data, &length)
      }
    } else {
      renderStatus = cgraphviz_render_data(context, graph, format.rawValue, &data, &length)
    }
    defer { if let data { gvFreeRenderData(data) } }
    guard renderStatus == 0, agerrors() == 0 else {
      throw .renderingFailed(format: format, message: takeMessages())
    }
    let warnings = GraphvizOutput.warnings(from: takeMessages(orIfNone: "") + "\n" + printed)
    guard let data else { return GraphvizOutput(bytes: [], warnings: warnings) }
    return GraphvizOutput(
      bytes: Array(UnsafeRawBufferPointer(start: data, count: length)), warnings: warnings)
  }

  /// Returns a shared context after clearing the error state a previous call left behind:
  /// the one without a text layout plugin when `estimatingText` and it can be created,
  /// otherwise the one with every plugin.
  private func preparedContext(estimatingText: Bool) -> OpaquePointer {
    if context == nil {
      // Installed before the context exists so that plugin loading reports here too.
      _ = agseterrf { message in
        if let message {
          GraphvizRuntime.shared.record(String(cString: message))
        }
        return 0
      }
      context = gvContext()
    }
    var chosen = context!
    if estimatingText {
      if case .notCreated = estimatingContext {
        estimatingContext =
          cgraphviz_context_without_text_layout().map(OptionalContext.created) ?? .unavailable
      }
      if case .created(let estimating) = estimatingContext { chosen = estimating }
    }
    _ = agreseterrors()
    messages = ""
    return chosen
  }

  /// Appends one piece of a Graphviz message; called by libgvc under `lock`.
  ///
  /// Graphviz hands over a message in pieces: its level (`Error`), `: `, then its text.
  private func record(_ piece: String) {
    messages += piece
  }

  /// The messages of the current call as one string, or `fallback` if there are none.
  private func takeMessages(
    orIfNone fallback: String = "libgvc failed without a message"
  ) -> String {
    var text = Substring(messages)
    while let last = text.last, last.isWhitespace { text.removeLast() }
    messages = ""
    return text.isEmpty ? fallback : String(text)
  }
}
