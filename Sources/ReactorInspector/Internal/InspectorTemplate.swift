/// The inspector's page: markup, styles and script, with the trace's data put in between.
///
/// The page is made of the files in `Sources/ReactorInspector/Page/`, embedded as
/// ``InspectorPageText`` by a generator (`InspectorAssets` in the inspector's tests, which also
/// fail when the embedded copy differs from the files). Everything the page shows from the
/// trace is set with `textContent` or as SVG parsed by `DOMParser` and stripped of scripts,
/// event handlers and links; the data is JSON inside a `<script type="application/json">`
/// element, escaped by ``ScriptEscaping``.
enum InspectorTemplate {
  /// The page for `data`, the JSON document ``PageDataWriter`` wrote.
  static func page(title: String, data: [UInt8]) -> [UInt8] {
    let before = InspectorPageText.beforeData
    let after = InspectorPageText.afterData
    var bytes: [UInt8] = []
    bytes.reserveCapacity(data.count + before.utf8.count + after.utf8.count)
    bytes.append(contentsOf: before.utf8)
    bytes.append(contentsOf: data)
    bytes.append(contentsOf: after.utf8)
    return bytes
  }

  /// The page's Content-Security-Policy, as its `<meta>` element states it.
  static let contentSecurityPolicy: String = {
    let page = Array(InspectorPageText.beforeData.utf8)
    let marker = Array(#"http-equiv="Content-Security-Policy" content=""#.utf8)
    guard let found = page.indices.first(where: { page[$0...].starts(with: marker) }) else {
      return "default-src 'none'"
    }
    let start = found + marker.count
    let end = page[start...].firstIndex(of: UInt8(ascii: "\"")) ?? page.endIndex
    return String(decoding: page[start..<end], as: UTF8.self)
  }()
}
