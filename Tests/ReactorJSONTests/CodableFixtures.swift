/// Types for the encoder and decoder tests.
enum JSONFixtures {
  enum CounterAction: Codable, Equatable {
    case increase
    case setLoading(Bool)
    case move(dx: Int, dy: Int)
    case rename(String, reason: String?)
    case batch([CounterAction])
  }

  enum Priority: String, Codable, Equatable {
    case low
    case high
  }

  enum Level: Int, Codable, Equatable {
    case debug = 0
    case error = 3
  }

  struct Point: Codable, Equatable {
    var x: Int
    var y: Int
    var z: Int
  }

  struct TodoItem: Codable, Equatable {
    var title: String
    var isDone: Bool
    var priority: Priority
    var tags: [String]
    var estimate: Double?
    var note: String?
  }

  struct Board: Codable, Equatable {
    var name: String
    var tasks: [TodoItem]
    var counts: [String: Int]
    var labels: [Int: String]
    var grid: [[Point]]
    var selected: Point?
    var level: Level
    var lastAction: CounterAction
    var nested: [String: [Int?]]
  }

  struct AllIntegers: Codable, Equatable {
    var int = Int.min
    var int8 = Int8.min
    var int16 = Int16.min
    var int32 = Int32.min
    var int64 = Int64.min
    var uint = UInt.max
    var uint8 = UInt8.max
    var uint16 = UInt16.max
    var uint32 = UInt32.max
    var uint64 = UInt64.max
  }

  struct Floats: Codable, Equatable {
    var float: Float
    var double: Double

    static func == (lhs: Floats, rhs: Floats) -> Bool {
      lhs.float.bitPattern == rhs.float.bitPattern && lhs.double.bitPattern == rhs.double.bitPattern
        || (lhs.float.isNaN && rhs.float.isNaN && lhs.double.isNaN && rhs.double.isNaN)
    }
  }

  /// Encodes nothing at all.
  struct Nothing: Encodable {
    func encode(to encoder: any Encoder) throws {}
  }

  /// A base class whose subclass encodes it with `superEncoder()`.
  class Shape: Codable {
    var name: String

    init(name: String) { self.name = name }

    private enum CodingKeys: String, CodingKey { case name }

    required init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      name = try container.decode(String.self, forKey: .name)
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(name, forKey: .name)
    }
  }

  final class Circle: Shape, Equatable {
    var radius: Double

    init(name: String, radius: Double) {
      self.radius = radius
      super.init(name: name)
    }

    private enum CodingKeys: String, CodingKey { case radius }

    required init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      radius = try container.decode(Double.self, forKey: .radius)
      try super.init(from: container.superDecoder())
    }

    override func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(radius, forKey: .radius)
      try super.encode(to: container.superEncoder())
    }

    static func == (lhs: Circle, rhs: Circle) -> Bool {
      lhs.name == rhs.name && lhs.radius == rhs.radius
    }
  }

  /// A subclass that shares its encoder with its superclass: both write one object.
  final class Square: Shape, Equatable {
    var side: Int

    init(name: String, side: Int) {
      self.side = side
      super.init(name: name)
    }

    private enum CodingKeys: String, CodingKey { case side }

    required init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      side = try container.decode(Int.self, forKey: .side)
      try super.init(from: decoder)
    }

    override func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(side, forKey: .side)
      try super.encode(to: encoder)
    }

    static func == (lhs: Square, rhs: Square) -> Bool {
      lhs.name == rhs.name && lhs.side == rhs.side
    }
  }

  /// Uses every kind of container by hand: nested keyed and unkeyed containers, super
  /// encoders/decoders for keys and for elements, and `nil`s.
  struct Manual: Codable, Equatable {
    var id: Int
    var corners: [Point]
    var meta: [String: String]
    var flags: [Bool?]
    var parent: Point

    init(id: Int, corners: [Point], meta: [String: String], flags: [Bool?], parent: Point) {
      self.id = id
      self.corners = corners
      self.meta = meta
      self.flags = flags
      self.parent = parent
    }

    private enum CodingKeys: String, CodingKey { case id, body, parent }
    private enum BodyKeys: String, CodingKey { case corners, meta, flags }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      var body = container.nestedContainer(keyedBy: BodyKeys.self, forKey: .body)
      var corners = body.nestedUnkeyedContainer(forKey: .corners)
      for corner in self.corners {
        var pair = corners.nestedUnkeyedContainer()
        try pair.encode(corner.x)
        try pair.encode(corner.y)
        var rest = pair.nestedContainer(keyedBy: BodyKeys.self)
        try rest.encode(corner.z, forKey: .meta)
      }
      try body.encode(meta, forKey: .meta)
      var flags = body.nestedUnkeyedContainer(forKey: .flags)
      for flag in self.flags {
        if let flag { try flags.encode(flag) } else { try flags.encodeNil() }
      }
      try parent.encode(to: container.superEncoder(forKey: .parent))
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      id = try container.decode(Int.self, forKey: .id)
      let body = try container.nestedContainer(keyedBy: BodyKeys.self, forKey: .body)
      var cornerList = try body.nestedUnkeyedContainer(forKey: .corners)
      corners = []
      while !cornerList.isAtEnd {
        var pair = try cornerList.nestedUnkeyedContainer()
        let x = try pair.decode(Int.self)
        let y = try pair.decode(Int.self)
        let rest = try pair.nestedContainer(keyedBy: BodyKeys.self)
        corners.append(Point(x: x, y: y, z: try rest.decode(Int.self, forKey: .meta)))
      }
      meta = try body.decode([String: String].self, forKey: .meta)
      var flagList = try body.nestedUnkeyedContainer(forKey: .flags)
      flags = []
      while !flagList.isAtEnd {
        flags.append(try flagList.decodeNil() ? nil : try flagList.decode(Bool.self))
      }
      parent = try Point(from: container.superDecoder(forKey: .parent))
    }
  }

  /// Encodes the same key twice: the last value wins.
  struct RepeatedKey: Encodable {
    private enum CodingKeys: String, CodingKey { case a, b }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(1, forKey: .b)
      try container.encode(2, forKey: .a)
      try container.encode("first", forKey: .b)
      var nested = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .a)
      try nested.encode(true, forKey: .a)
      try container.encode("last", forKey: .b)
    }
  }

  /// Fails to encode or decode, reporting the coding path it was given.
  struct Failing: Codable {
    init() {}

    init(from decoder: any Decoder) throws {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "failing"))
    }

    func encode(to encoder: any Encoder) throws {
      throw EncodingError.invalidValue(
        0, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "failing"))
    }
  }

  struct FailingHolder: Codable {
    var outer: [String: [Failing]]
  }

  struct FailingInArray: Codable {
    var items: [Point]
    var failing: [Failing]
  }
}
