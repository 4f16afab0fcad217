import ReactorJSON

/// What a queued state holds in memory of its own: the part of its canonical JSON whose
/// storage it does not share with the state before it.
///
/// `reduce` returns a copy of the state with a change; copy-on-write shares every array,
/// dictionary, set and large string the change did not touch with the state before. A queued
/// state whose 100 KB text is unchanged holds a few bytes more than the one before it, not
/// another 100 KB. The recorders' queue budget counts each queued state at
/// ``WriterHandshake/memoryPerStateByte`` times its canonical JSON; the writer thread measures,
/// from the last two states of each batch it takes, how much of that JSON is the state's own,
/// and the states queued next are counted at that.
///
/// Only the state's stored properties are compared (not what they hold in turn), each with the
/// member of the same name in the canonical JSON: a property whose storage is the one the
/// state before held is left out. Anything else (a member named otherwise by its coding keys,
/// a key with an escape, a state that is not an object) counts whole.
enum QueuedStateMemory {
  /// What the last of a batch's states holds of its own, measured against the state queued
  /// before it (the batch's one before last, or else `lastTaken`, the last state of the batch
  /// before), which then becomes `lastTaken`: both writers' measure of a batch they took.
  /// - Parameters:
  ///   - states: The batch's states, at least one.
  ///   - lastTaken: The last state of the batch before, if any; set to this batch's last.
  ///   - json: The canonical JSON of a recent state of the same reactor, if any.
  /// - Returns: Its own bytes (``ownBytes(of:after:json:)``), or `nil` when the state before it
  ///   or the JSON is not known.
  static func ownBytesOfLast<State>(
    in states: PayloadBuffer<State>, lastTaken: inout State?, json: [UInt8]?
  ) -> Int? {
    let last = states[states.count - 1]
    let previous = states.count > 1 ? states[states.count - 2] : lastTaken
    lastTaken = last
    guard let previous, let json else { return nil }
    return json.withUnsafeBufferPointer { ownBytes(of: last, after: previous, json: $0) }
  }

  /// The bytes of `json`, the canonical JSON of a state like `state`, that `state` does not
  /// share with `previous`.
  /// - Parameters:
  ///   - state: A state.
  ///   - previous: The state queued before it.
  ///   - json: The canonical JSON of a recent state of the same reactor.
  /// - Returns: `json.count`, less the members whose storage `state` shares with `previous`.
  static func ownBytes<State>(
    of state: State, after previous: State, json: UnsafeBufferPointer<UInt8>
  ) -> Int {
    let children = Mirror(reflecting: state).children
    let previousChildren = Mirror(reflecting: previous).children
    guard children.count == previousChildren.count else { return json.count }
    var shared: [String] = []
    for (child, previousChild) in zip(children, previousChildren) {
      guard let label = child.label, label == previousChild.label,
        let identity = storageIdentity(of: child.value),
        identity == storageIdentity(of: previousChild.value)
      else { continue }
      shared.append(label)
    }
    guard !shared.isEmpty else { return json.count }
    var own = json.count
    forEachMember(of: json) { key, valueBytes in
      if shared.contains(where: { $0.utf8.elementsEqual(key) }) { own -= valueBytes }
    }
    return max(own, 0)
  }

  /// The address of the heap storage `value` refers to, when it is an array, a dictionary,
  /// a set or a string too long to be held inline; `nil` for anything else.
  static func storageIdentity(of value: Any) -> UnsafeRawPointer? {
    (value as? any SharedStorage)?.storageIdentity
  }

  /// Calls `body` with each member's key (between its quotes) and the length of its value,
  /// for the members of the object `json` holds; calls it for none when `json` is not an
  /// object or a key holds an escape.
  static func forEachMember(
    of json: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>, Int) -> Void
  ) {
    var position = 0
    guard json.count >= 2, json[0] == UInt8(ascii: "{") else { return }
    position = 1
    while position < json.count, json[position] == UInt8(ascii: "\"") {
      let keyStart = position + 1
      var keyEnd = keyStart
      while keyEnd < json.count, json[keyEnd] != UInt8(ascii: "\"") {
        if json[keyEnd] == UInt8(ascii: "\\") { return }
        keyEnd += 1
      }
      let valueStart = keyEnd + 2  // The quote and the colon.
      guard valueStart < json.count, let valueEnd = endOfValue(in: json, from: valueStart)
      else { return }
      body(UnsafeBufferPointer(rebasing: json[keyStart..<keyEnd]), valueEnd - valueStart)
      position = valueEnd
      guard position < json.count, json[position] == UInt8(ascii: ",") else { return }
      position += 1
    }
  }

  /// Where the JSON value starting at `start` ends: the offset just past it; `nil` when the
  /// bytes end first.
  private static func endOfValue(in json: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard let base = json.baseAddress else { return nil }
    var position = start
    var depth = 0
    var isInString = false
    while position < json.count {
      if isInString {
        // A long text's characters, eight bytes at a time.
        ByteWord.skipStringCharacters(in: base, from: &position, to: json.count)
        guard position < json.count else { return nil }
      }
      let byte = json[position]
      if isInString {
        if byte == UInt8(ascii: "\\") {
          position += 1
        } else if byte == UInt8(ascii: "\"") {
          isInString = false
          if depth == 0 { return position + 1 }
        }
      } else {
        switch byte {
        case UInt8(ascii: "\""): isInString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          if depth == 0 { return position }
          depth -= 1
          if depth == 0 { return position + 1 }
        case UInt8(ascii: ","):
          if depth == 0 { return position }
        default: break
        }
      }
      position += 1
    }
    return nil
  }
}

/// A value whose contents live in heap storage that copies of it share until one changes.
protocol SharedStorage {
  /// The storage's address; `nil` when the value holds none of its own (empty, or inline).
  var storageIdentity: UnsafeRawPointer? { get }
}

extension Array: SharedStorage {
  var storageIdentity: UnsafeRawPointer? {
    isEmpty ? nil : withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
  }
}

extension ContiguousArray: SharedStorage {
  var storageIdentity: UnsafeRawPointer? {
    isEmpty ? nil : withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
  }
}

extension Dictionary: SharedStorage {
  var storageIdentity: UnsafeRawPointer? {
    // A dictionary is one reference to its storage.
    isEmpty ? nil : unsafeBitCast(self, to: UnsafeRawPointer.self)
  }
}

extension Set: SharedStorage {
  var storageIdentity: UnsafeRawPointer? {
    // A set is one reference to its storage.
    isEmpty ? nil : unsafeBitCast(self, to: UnsafeRawPointer.self)
  }
}

extension String: SharedStorage {
  var storageIdentity: UnsafeRawPointer? {
    // Up to 15 bytes are held inline, whose address would be a temporary copy's.
    guard utf8.count > 15 else { return nil }
    return utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
  }
}
