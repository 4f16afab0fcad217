import Foundation
import ReactorJSON
import ReactorSchema
import Testing

@Suite("URLs in trace JSON")
struct URLCodingTests {
  private struct Page: Codable, Equatable {
    var url: URL
    var links: [URL]
    var next: URL?
  }

  private enum Action: Codable, Equatable {
    case open(URL)
  }

  private let page = Page(
    url: URL(string: "https://example.com/a?q=x%20y")!,
    links: [URL(string: "https://example.com/b")!], next: nil)

  @Test func bothEncodersWriteAURLAsItsAbsoluteString() throws {
    let expected = #"{"links":["https://example.com/b"],"url":"https://example.com/a?q=x%20y"}"#
    #expect(try JSONValueEncoder().encode(page).serializedString == expected)
    var bytes: [UInt8] = []
    let encoder = CanonicalJSONEncoder()
    try encoder.encode(page, into: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == expected)
    #expect(encoder.encodesDirectly(page))
    let action = Action.open(URL(string: "https://example.com/c")!)
    #expect(
      try JSONValueEncoder().encode(action).serializedString
        == #"{"open":{"_0":"https://example.com/c"}}"#)
    #expect(
      try JSONValueEncoder().encode(URL(string: "https://example.com/")!).serializedString
        == #""https://example.com/""#)
    try encoder.encode(URL(string: "https://example.com/")!, into: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == #""https://example.com/""#)
  }

  @Test func aURLIsDecodedFromItsStringAndFromItsCodableObject() throws {
    let decoder = JSONValueDecoder()
    let written = try JSONValueEncoder().encode(page)
    #expect(try decoder.decode(Page.self, from: written) == page)
    #expect(
      try decoder.decode(
        Action.self, from: JSONValue(parsing: #"{"open":{"_0":"https://x.org/"}}"#))
        == .open(URL(string: "https://x.org/")!))
    #expect(
      try decoder.decode(URL.self, from: JSONValue(parsing: #"{"relative":"https://x.org/"}"#))
        == URL(string: "https://x.org/")!)
    #expect(throws: DecodingError.self) {
      try decoder.decode(URL.self, from: JSONValue(parsing: #""""#))
    }
  }

  @Test func aSchemaDescribesAURLAsAStringWrapper() throws {
    let shape = try #require(TypeFingerprint(of: Action.self).shape)
    guard case .enumeration(_, _, let cases, let isPartial) = shape else {
      Issue.record("not an enum: \(shape)")
      return
    }
    #expect(!isPartial)
    #expect(
      cases.map(\.fields) == [
        [.init(name: "_0", schema: .wrapper(name: "URL", value: .primitive("String")))]
      ])
  }
}
