import Foundation
import ReactorCore
import Testing

@testable import ReactorSchema

@Suite struct TypeMetadataTests {
  @Test func structFieldNamesMatchMirror() throws {
    let samples: [Any] = [
      Counter.State(count: 1, isLoading: false, user: nil),
      Counter.User(name: "a", age: 1),
      Catalog.Item(title: "t", price: 1, tags: []),
      Alerts(message: nil, count: 0),
      Carton(content: "x"),
      NotCodable(value: 3),
    ]
    for sample in samples {
      let fields = try #require(TypeMetadata.structFields(of: type(of: sample)))
      #expect(fields.map(\.name) == Mirror(reflecting: sample).children.map(\.label))
    }
  }

  @Test func enumCaseNamesMatchMirrorInTagOrder() throws {
    let cases = try #require(TypeMetadata.enumCases(of: Counter.Action.self))
    let payloadLabels = [
      Counter.Action.setLoading(true), .setUser(name: "a", age: 1),
    ].map { Mirror(reflecting: $0).children.first?.label }
    let payloadFreeNames = [Counter.Action.increase, .decrease].map { String(describing: $0) }
    #expect(cases.map(\.name) == payloadLabels + payloadFreeNames)
    #expect(cases.map(\.hasType) == [true, true, false, false])
  }

  @Test func casesOfEnumsWithoutPayloadKeepDeclarationOrder() throws {
    let cases = try #require(TypeMetadata.enumCases(of: Tab.self))
    #expect(cases.map(\.name) == ["home", "search", "settings"])
    #expect(cases.allSatisfy { !$0.hasType })
  }

  @Test func otherKindsOfTypesHaveNoRecords() {
    let types: [Any.Type] = [
      TreeNode.self, Int?.self, (Int, String).self, (() -> Void).self, (any Error).self,
      Int.Type.self, [Int].self,
    ]
    for type in types {
      #expect(TypeMetadata.enumCases(of: type) == nil, "\(type)")
    }
    #expect(TypeMetadata.structFields(of: Counter.Action.self) == nil)
    #expect(TypeMetadata.structFields(of: TreeNode.self) == nil)
    #expect(TypeMetadata.enumCases(of: Counter.State.self) == nil)
  }

  @Test func payloadFreeCasesAreBuiltFromTheirTags() throws {
    let cases = try #require(TypeMetadata.enumCases(of: Tab.self))
    let built = cases.indices.map { TypeMetadata.payloadFreeCase(Tab.self, tag: $0, of: cases) }
    #expect(built == [.home, .search, .settings])
    #expect(TypeMetadata.payloadFreeCase(Tab.self, tag: 3, of: cases) == nil)
  }

  @Test func enumsWithPayloadsOrOtherLayoutsAreNotBuilt() throws {
    let actionCases = try #require(TypeMetadata.enumCases(of: Counter.Action.self))
    #expect(TypeMetadata.payloadFreeCase(Counter.Action.self, tag: 0, of: actionCases) == nil)
    let tabCases = try #require(TypeMetadata.enumCases(of: Tab.self))
    #expect(TypeMetadata.payloadFreeCase(Int.self, tag: 0, of: tabCases) == nil)
    #expect(TypeMetadata.payloadFreeCase(String.self, tag: 0, of: tabCases) == nil)
  }

  @Test func typeNamesDropModulesAndContexts() {
    struct Local {}
    #expect(TypeName.of(Counter.Action.self) == "Counter.Action")
    #expect(TypeName.of(Pulse<String?>.self) == "Pulse<Optional<String>>")
    #expect(TypeName.of([String: [Int]].self) == "Dictionary<String, Array<Int>>")
    #expect(TypeName.of(Local.self) == "TypeMetadataTests.Local")
    #expect(TypeName.of(Carton<Counter.User>.self) == "Carton<Counter.User>")
    #expect(TypeName.of(Date.self) == "Date")
  }

  @Test func nameStrippingHandlesNestedGenericsAndContexts() {
    #expect(TypeName.strippingModules(from: "App.G<Swift.Int>.Nested") == "G<Int>.Nested")
    #expect(TypeName.strippingModules(from: "(Swift.Int, App.T)") == "(Int, T)")
    #expect(
      TypeName.strippingContexts(from: "App.(unknown context at $1a2b).(unknown context at $3c).X")
        == "App.X"
    )
    #expect(TypeName.strippingContexts(from: "(extension in App):Swift.Int.Y") == "Swift.Int.Y")
  }
}
