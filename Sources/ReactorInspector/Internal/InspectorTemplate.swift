/// The inspector's page: markup, styles and script, with the trace's data put in between.
///
/// The page is made of the files in `Sources/ReactorInspector/Page/`, which SwiftPM embeds in
/// the module as bytes (`.embedInCode` in `Package.swift`, read as `PackageResources`). The
/// first page a process makes assembles them, once: the styles and the two scripts go inline
/// into `inspector.html` (the scripts as one `<script>` element), `script-src` names that
/// script's SHA-256, and the page is cut at its data element. Everything the page shows from
/// the trace is set with `textContent` or as SVG parsed by `DOMParser` and stripped of scripts,
/// event handlers and links; the data is JSON inside a `<script type="application/json">`
/// element, escaped by ``ScriptEscaping``.
package enum InspectorTemplate {
  /// The page cut where the trace's data goes.
  package struct Parts: Sendable {
    /// The page up to and including the opening tag of the data element.
    package var beforeData: [UInt8]
    /// The page from the closing tag of the data element on.
    package var afterData: [UInt8]
  }

  /// Why the page's files do not fit together: `inspector.html` holds a reference other than
  /// exactly once.
  package struct AssemblyError: Error, CustomStringConvertible {
    /// The reference.
    package var reference: String

    package var description: String { "inspector.html must hold \(reference) exactly once" }
  }

  /// The page of the embedded files, assembled at first use.
  package static let parts: Parts = {
    do throws(AssemblyError) {
      return try assemble(
        html: PackageResources.inspector_html, css: PackageResources.inspector_css,
        eventSlots: PackageResources.event_slots_js, script: PackageResources.inspector_js)
    } catch {
      // The files are fixed when the module is built, and its tests assemble them.
      preconditionFailure(error.description)
    }
  }()

  /// The page for `data`, the JSON document ``PageDataWriter`` wrote.
  static func page(title: String, data: [UInt8]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(data.count + parts.beforeData.count + parts.afterData.count)
    bytes.append(contentsOf: parts.beforeData)
    bytes.append(contentsOf: data)
    bytes.append(contentsOf: parts.afterData)
    return bytes
  }

  /// The page's Content-Security-Policy, as its `<meta>` element states it.
  static let contentSecurityPolicy: String = {
    let page = parts.beforeData
    let marker = Array(#"http-equiv="Content-Security-Policy" content=""#.utf8)
    guard let found = page.indices.first(where: { page[$0...].starts(with: marker) }) else {
      return "default-src 'none'"
    }
    let start = found + marker.count
    let end = page[start...].firstIndex(of: UInt8(ascii: "\"")) ?? page.endIndex
    return String(decoding: page[start..<end], as: UTF8.self)
  }()

  /// The page of the page's files: `inspector.html` with `inspector.css` inline in a `<style>`
  /// element, `event-slots.js` and `inspector.js` one after the other in one `<script>`
  /// element (so that the page holds one script besides its data), that script's hash in
  /// place of `script-src 'unsafe-inline'`, cut at its empty data element.
  /// - Throws: ``AssemblyError`` when `html` holds one of those references other than once.
  package static func assemble(html: [UInt8], css: [UInt8], eventSlots: [UInt8], script: [UInt8])
    throws(AssemblyError) -> Parts
  {
    var page = try replacingOnce(
      #"<link rel="stylesheet" href="inspector.css">"#, in: html,
      with: Array("<style>\n".utf8) + css + Array("</style>".utf8))
    let inline = Array("\n".utf8) + eventSlots + script
    page = try replacingOnce(
      #"<script src="event-slots.js"></script>"# + "\n" + #"<script src="inspector.js"></script>"#,
      in: page, with: Array("<script>".utf8) + inline + Array("</script>".utf8))
    // The browser runs that one script and no other: not one an escaping mistake let in.
    page = try replacingOnce(
      "script-src 'unsafe-inline'", in: page,
      with: Array("script-src 'sha256-\(SHA256Digest.base64(inline))'".utf8))
    let opening = #"<script type="application/json" id="trace-data">"#
    let (before, after) = try cut(page, at: opening + "</script>")
    return Parts(
      beforeData: before + Array(opening.utf8), afterData: Array("</script>".utf8) + after)
  }

  /// `page` with its one `reference` replaced by `text`.
  private static func replacingOnce(_ reference: String, in page: [UInt8], with text: [UInt8])
    throws(AssemblyError) -> [UInt8]
  {
    let (before, after) = try cut(page, at: reference)
    return before + text + after
  }

  /// `page` before and after its one `reference`.
  private static func cut(_ page: [UInt8], at reference: String) throws(AssemblyError) -> (
    [UInt8], [UInt8]
  ) {
    let target = Array(reference.utf8)
    let found = page.indices.filter { page[$0] == target[0] && page[$0...].starts(with: target) }
    guard found.count == 1, let start = found.first else {
      throw AssemblyError(reference: reference)
    }
    return (Array(page[..<start]), Array(page[(start + target.count)...]))
  }
}
