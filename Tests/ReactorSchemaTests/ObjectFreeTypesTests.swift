import Foundation
import ReactorCore
import Testing

@testable import ReactorSchema

@Suite struct ObjectFreeTypesTests {
  private final class Model: Sendable {}

  private struct Plain {
    enum Phase {
      case idle
      case loading(progress: Double)
      case failed(String)
    }
    var title: String
    var tags: Set<String>
    var counts: [String: Int]
    var phase: Phase
    var children: [Plain]
    var when: Date?
    var data: Data
    var link: URL?
    var pair: (Int, String)
    var reference: ReactorReference
  }

  private indirect enum Tree {
    case leaf(Int)
    case node(Tree, Tree, label: String)
  }

  private struct Holder<Content> {
    var content: [Content]
  }

  private struct WithClass { var model: Model }
  private struct WithClassInAnEnum {
    enum Slot {
      case empty
      case full([Model])
    }
    var slot: Slot
  }
  private struct WithExistential { var value: any Sendable }
  private struct WithClosure { var action: @Sendable () -> Void }
  private struct WithWeak { weak var model: Model? }

  @Test func valuesMadeOfStringsCollectionsEnumsAndFoundationValuesAreObjectFree() {
    let types: [Any.Type] = [
      Int.self, String.self, [Int].self, Plain.self, Plain.Phase.self, Tree.self,
      Holder<Plain>.self, Holder<Tree?>.self, [String: [Plain]].self, Substring.self,
      Character.self, ContiguousArray<Double>.self, ArraySlice<String>.self, Int.Type.self,
      Counter.State.self, Counter.Action.self,
    ]
    for type in types {
      #expect(ObjectFreeTypes.contains(type), "\(type)")
    }
  }

  @Test func aClassAnExistentialOrAClosureAnywhereInAValueIsNotObjectFree() {
    let types: [Any.Type] = [
      Model.self, WithClass.self, WithClassInAnEnum.self, WithExistential.self,
      WithClosure.self, WithWeak.self, [Model].self, Model?.self, Holder<Model>.self,
      [String: Model].self, (Int, Model).self, (any Sendable).self, AnyObject.self,
      Holder<WithClassInAnEnum>.self,
    ]
    for type in types {
      #expect(!ObjectFreeTypes.contains(type), "\(type)")
    }
  }

  @Test func theTypesOfEnumPayloadsAreReadInTagOrder() throws {
    let types = try #require(TypeMetadata.enumPayloadTypes(of: Plain.Phase.self))
    #expect(types.map { "\($0)" } == ["(progress: Double)", "String"])
    let wrapped = try #require(TypeMetadata.enumPayloadTypes(of: [Model]?.self))
    #expect(wrapped.count == 1 && wrapped[0] == [Model].self)
    let generic = try #require(
      TypeMetadata.enumPayloadTypes(of: Optional<Holder<Tree>>.self))
    #expect(generic.count == 1 && generic[0] == Holder<Tree>.self)
    #expect(TypeMetadata.enumPayloadTypes(of: Plain.self) == nil)
    #expect(TypeMetadata.enumPayloadTypes(of: Int.self) == nil)
  }
}
