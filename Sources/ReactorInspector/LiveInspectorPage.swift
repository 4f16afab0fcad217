import ReactorTracing

/// The inspector in live mode: the page `reactor-trace serve` hosts, and the diagrams it asks
/// the server for as events arrive.
///
/// The page is the inspector's own page with no events in it. Its script reads the trace's
/// lines from the server's WebSocket (the history first, then each batch as it arrives), turns
/// each into an event as ``InspectorPage`` embeds them, and asks for ``diagrams(tracePath:)``
/// of the stream at most twice a second.
///
/// ```swift
/// let page = LiveInspectorPage.html   // serve with LiveInspectorPage.contentSecurityPolicy
/// ```
public enum LiveInspectorPage {
  /// The page's Content-Security-Policy, served as a header too.
  ///
  /// The offline page's policy, plus connections to the page's own origin (its socket, its
  /// diagram requests and its commands) and the command bar's script.
  public static let contentSecurityPolicy =
    InspectorTemplate.contentSecurityPolicy.replacing(
      "default-src 'none';", with: "default-src 'none'; connect-src 'self';"
    ).replacing("script-src ", with: "script-src '\(LiveCommandBar.scriptHash)' ")
    + "; base-uri 'none'; form-action 'none'"

  /// The page.
  public static let html: [UInt8] = {
    var data = JSONObject()
    data["live"] = .bool(true)
    data["reactor"] = .string("reactor-trace live")
    data["session"] = .bool(false)
    data["version"] = .string("")
    data["recorder"] = .null
    data["clock"] = .string("")
    data["origin"] = .null
    data["metadata"] = .object(JSONObject())
    data["redactions"] = .array([])
    data["warnings"] = .array([])
    data["notes"] = .array([])
    data["diagrams"] = .array([])
    data["reactors"] = .array([])
    data["events"] = .array([])
    var bytes: [UInt8] = []
    JSONValue.object(data).write(to: &bytes)
    let page = String(
      decoding: InspectorTemplate.page(title: "reactor-trace live", data: bytes), as: UTF8.self)
    let withBar = page.replacing("</body>", with: LiveCommandBar.markup + "</body>")
    return Array(
      withBar.replacing(InspectorTemplate.contentSecurityPolicy, with: contentSecurityPolicy).utf8)
  }()

  /// The transitions diagrams of a trace or a session as far as it is written, with the node
  /// of each reactor's state after each of its mutations: a JSON object
  /// `{"diagrams": [{"type", "svg", "nodeNames", "note"}], "reactors": [{"id", "diagram",
  /// "nodes"}]}`, as the page's own data has them.
  /// - Parameter tracePath: The trace the server keeps of the stream.
  /// - Returns: The JSON text.
  /// - Throws: ``InspectorError`` when the trace cannot be read.
  public static func diagrams(tracePath: String) throws(InspectorError) -> [UInt8] {
    let page = try InspectorPage(tracePath: tracePath)
    return page.diagramData
  }
}
