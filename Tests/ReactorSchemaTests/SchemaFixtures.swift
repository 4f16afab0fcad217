import Foundation
import ReactorCore
import ReactorExamples

// Types whose fingerprints the schema tests compare. Versions of one type (`V1`, `V2`…) have
// different names on purpose: fingerprints ignore type names, so they stand for one type
// before and after an edit.

enum Counter {
  enum Action: Codable, Sendable {
    case increase
    case decrease
    case setLoading(Bool)
    case setUser(name: String, age: Int)
  }

  struct State: Codable, Sendable {
    var count: Int
    var isLoading: Bool
    var user: User?
  }

  struct User: Codable, Sendable, Hashable {
    var name: String
    var age: Int
  }
}

enum Renamed {
  enum Input: Codable, Sendable {
    case increase
    case decrease
    case setLoading(Bool)
    case setUser(name: String, age: Int)
  }
}

enum ActionWithReset: Codable {
  case increase
  case decrease
  case setLoading(Bool)
  case setUser(name: String, age: Int)
  case reset
}

enum ActionWithoutDecrease: Codable {
  case increase
  case setLoading(Bool)
  case setUser(name: String, age: Int)
}

enum ActionWithEmail: Codable {
  case increase
  case decrease
  case setLoading(Bool)
  case setUser(name: String, age: Int, email: String)
}

enum ActionWithRenamedLabel: Codable {
  case increase
  case decrease
  case setLoading(Bool)
  case setUser(fullName: String, age: Int)
}

struct StateWithDoubleCount: Codable {
  var count: Double
  var isLoading: Bool
  var user: Counter.User?
}

struct StateWithOptionalCount: Codable {
  var count: Int?
  var isLoading: Bool
  var user: Counter.User?
}

struct Catalog: Codable {
  struct Item: Codable, Hashable {
    var title: String
    var price: Double
    var tags: Set<String>
  }

  var items: [Item]
  var byID: [String: Item]
  var ranks: [Int: [Double]]
  var featured: Item?
  var nested: [[Int8]]
  var history: ContiguousArray<UInt16>
}

enum Payload: Codable {
  case unlabelled(Int, String)
  case labelled(id: UInt64, note: String?)
  case mixed(Float, flag: Bool)
  case nothing
}

enum Tab: String, Codable, Sendable {
  case home
  case search
  case settings = "Settings"
}

enum Urgency: Int, Codable {
  case low
  case medium
  case high = 10
}

indirect enum Expression: Codable {
  case add(Expression, Expression)
  case negate(Expression)
  case number(Int)
}

final class TreeNode: Codable {
  var value: Int
  var children: [TreeNode]
  var parent: TreeNode?

  init(value: Int) {
    self.value = value
    self.children = []
    self.parent = nil
  }
}

struct Alerts: Codable, Sendable {
  @Pulse var message: String?
  var count: Int
}

/// Accepts only even numbers and non-empty names: the probe's first values fail.
struct Validated: Codable {
  var name: String
  var even: Int

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decode(String.self, forKey: .name)
    guard !name.isEmpty else {
      throw DecodingError.dataCorruptedError(
        forKey: .name, in: container, debugDescription: "empty")
    }
    even = try container.decode(Int.self, forKey: .even)
    guard even.isMultiple(of: 2) else {
      throw DecodingError.dataCorruptedError(
        forKey: .even, in: container, debugDescription: "odd")
    }
  }
}

/// Rejects everything after decoding one field.
struct AlwaysFails: Codable {
  var first: Int

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    first = try container.decode(Int.self, forKey: .first)
    throw DecodingError.dataCorruptedError(
      forKey: .first, in: container, debugDescription: "never")
  }
}

/// Decodes one string and rejects it, whatever it is.
struct NeverValid: Codable {
  var text: String

  init(from decoder: any Decoder) throws {
    text = try decoder.singleValueContainer().decode(String.self)
    throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "never"))
  }
}

struct HoldsFailures: Codable {
  var before: Int
  var broken: NeverValid
  var after: String
}

struct Wrapped: Codable {
  var id: UUID
  var date: Date
  var url: URL
  var data: Data
  var range: Range<Int>
}

struct NotCodable: Sendable {
  var value: Int
}

struct DecodableOnly: Decodable {
  var value: Int
}

enum KeyedDifferently: Codable {
  case first(Int)
  case second

  enum CodingKeys: String, CodingKey {
    case first = "FIRST"
    case second = "SECOND"
  }
}

/// Decodes `{"kind": "circle", "radius": 1}`: the case from a discriminator field.
enum Figure: Codable {
  case circle(radius: Double)
  case square(side: Double)

  private enum Keys: String, CodingKey {
    case kind
    case radius
    case side
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    switch try container.decode(String.self, forKey: .kind) {
    case "circle": self = .circle(radius: try container.decode(Double.self, forKey: .radius))
    case "square": self = .square(side: try container.decode(Double.self, forKey: .side))
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .kind, in: container, debugDescription: "unknown kind")
    }
  }

  func encode(to encoder: any Encoder) throws {}
}

struct Carton<Content: Codable>: Codable {
  var content: Content
}

/// `Carton<Carton<…<Content>…>>`, `levels` cartons deep, built at run time: spelling out such a
/// type makes the compiler's work grow exponentially with the depth.
func cartons<Content: Codable>(around content: Content.Type, levels: Int) -> any Codable.Type {
  levels == 0 ? content : cartons(around: Carton<Content>.self, levels: levels - 1)
}

@MainActor
final class SchemaCounterReactor: Reactor {
  typealias Action = Counter.Action
  typealias State = Counter.State

  let initialState = State(count: 0, isLoading: false, user: nil)
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State { state }
}

struct StateWithRenamedUserType: Codable {
  struct Person: Codable {
    var name: String
    var age: Int
  }

  var count: Int
  var isLoading: Bool
  var user: Person?
}

struct StateWithRenamedUserField: Codable {
  struct Person: Codable {
    var fullName: String
    var age: Int
  }

  var count: Int
  var isLoading: Bool
  var user: Person?
}

enum TabWithOtherRawValue: String, Codable {
  case home = "Home"
  case search
  case settings = "Settings"
}

enum TabWithIntRawValue: Int, Codable {
  case home
  case search
  case settings
}

/// `Carton<Int>`'s fields, but its initializer fails after decoding them.
struct AlwaysFailsWithContent: Codable {
  var content: Int

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    content = try container.decode(Int.self, forKey: .content)
    throw DecodingError.dataCorruptedError(
      forKey: .content, in: container, debugDescription: "never")
  }
}
