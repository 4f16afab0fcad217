import ReactorCore
import ReactorJSON

// States: each one stored as a snapshot, a diff from the previous one, or a description.

extension TraceEventEncoder {
  /// How ``serializeStateChange(to:)`` stored a state.
  enum SerializedStateChange {
    /// The whole state, in `snapshotBytes`.
    case snapshot(TraceHash)
    /// A diff from the previous state, in `diffBytes`: a JSON array of operations.
    case diff(TraceHash)
    /// A description, for a state that does not encode.
    case description(String, TraceHash)
  }

  mutating func stateChange(to state: State) -> (TraceEvent.StateChange, TraceHash) {
    let previous = previousTree ?? previousBytes.flatMap { try? JSONValue(parsing: $0) }
    let serialized = withUnsafePointer(to: state) {
      serializeStateChange(to: $0, canonical: nil, hashesLater: false)
    }
    switch serialized {
    case .snapshot(let hash):
      return (.snapshot(previousTree!), hash)
    case .diff(let hash):
      return (.diff(previous!.diff(to: previousTree!)), hash)
    case .description(let description, let hash):
      return (.description(description), hash)
    }
  }

  /// Encodes `state`, serializes it into `snapshotBytes` and, when a diff from the previous
  /// state is due and smaller, the diff into `diffBytes`; makes `state` the previous state.
  ///
  /// With `canonical`, the diff uses what the encoder knows of the arrays of Ints that
  /// changed, when it also wrote the previous state's bytes (``previousBytesMark``).
  ///
  /// A diff is chosen when its operations take fewer bytes than the whole state, and at most
  /// `snapshotInterval` mutations after the last snapshot. Given `canonical`, a state of an
  /// Encodable type without redaction goes straight to canonical bytes, without a tree; the
  /// bytes are the same either way. Diffs are taken between canonical bytes. With
  /// `hashesLater`, a serialized state's hash is left for the caller to compute from
  /// `previousBytes` (the change holds a placeholder).
  ///
  /// The state is read in place, at `state`: a copy of a generic value costs a call through
  /// its type's witnesses and a retain of each of its arrays.
  mutating func serializeStateChange(
    to state: UnsafePointer<State>, canonical: CanonicalJSONEncoder?, hashesLater: Bool
  ) -> SerializedStateChange {
    previousTree = nil
    let encoded: Bool
    // What the encoder knows of the arrays of Ints that changed since the previous state,
    // when it wrote that state's bytes: the diff skips what did not change.
    var arrays: [IntegerArrayChange] = []
    let previousMark = previousBytesMark
    previousBytesMark = nil
    if let canonical, let encodableState, !stateRedactor.isActive {
      encoded = encode(state, as: encodableState.type, with: canonical)
      if encoded {
        previousBytesMark = canonical.lastValue
        arrays = canonical.integerArrayChanges(since: previousMark)
      }
    } else if let json = encodeState(state.pointee) {
      snapshotBytes.removeAll(keepingCapacity: true)
      JSONWriter.write(json, to: &snapshotBytes)
      previousTree = json
      encoded = true
    } else {
      encoded = false
    }
    guard encoded else {
      previousBytes = nil
      let description = describe(state.pointee, redactor: stateRedactor)
      lastStateByteCount = description.utf8.count
      return .description(description, TraceHeader.State.description(description).hash)
    }
    lastStateByteCount = snapshotBytes.count
    let hash = hashesLater ? TraceHash(0) : TraceHash(of: snapshotBytes)
    var change = SerializedStateChange.snapshot(hash)
    if mutationsSinceSnapshot < snapshotInterval, let previous = previousBytes,
      let operationBytes = writeDiff(from: previous, arrays: arrays),
      operationBytes < snapshotBytes.count
    {
      change = .diff(hash)
      mutationsSinceSnapshot += 1
    } else {
      mutationsSinceSnapshot = 0
    }
    // The state becomes the previous one, in the previous one's memory; after a diff, which
    // is written from `diffBytes`, by swapping the two without a copy.
    var kept = previousBytes ?? []
    previousBytes = nil
    if case .diff = change {
      swap(&kept, &snapshotBytes)
    } else {
      kept.removeAll(keepingCapacity: true)
      kept.append(contentsOf: snapshotBytes)
    }
    previousBytes = kept
    return change
  }

  /// The state's Codable encoding after redaction or, for a state that is not `Encodable`,
  /// what ``reflectsState`` makes of it; `nil` when neither encodes it.
  func encodeState(_ state: State) -> JSONValue? {
    if let json = encode(state, as: encodableState, redactor: stateRedactor) { return json }
    guard encodableState == nil, let reflectsState else { return nil }
    return stateRedactor.redact(reflectsState(state))
  }

  /// Writes the canonical JSON of the state at `state`, whose type is `T`, into
  /// `snapshotBytes`; returns whether it encoded.
  private mutating func encode<T: Encodable>(
    _ state: UnsafePointer<State>, as _: T.Type, with canonical: CanonicalJSONEncoder
  ) -> Bool {
    state.withMemoryRebound(to: T.self, capacity: 1) {
      (try? canonical.encode($0.pointee, into: &snapshotBytes)) != nil
    }
  }

  /// Writes `[`, the diff from the state whose canonical JSON is `previous` to the one in
  /// `snapshotBytes`, and `]` into `diffBytes`; returns the bytes its operations take, or
  /// `nil` when the bytes cannot be read back.
  private mutating func writeDiff(from previous: [UInt8], arrays: [IntegerArrayChange]) -> Int? {
    // The diff writes into the bytes and works in the memory in place, without a copy.
    var bytes: [UInt8] = []
    var memory = CanonicalJSONDiff.Memory()
    swap(&bytes, &diffBytes)
    swap(&memory, &diffMemory)
    defer {
      swap(&bytes, &diffBytes)
      swap(&memory, &diffMemory)
    }
    bytes.removeAll(keepingCapacity: true)
    bytes.append(UInt8(ascii: "["))
    defer { bytes.append(UInt8(ascii: "]")) }
    let operationBytes = previous.withUnsafeBufferPointer { old in
      snapshotBytes.withUnsafeBufferPointer { new in
        CanonicalJSONDiff.write(
          from: old, to: new, into: &bytes, arrays: arrays, memory: &memory)
      }
    }
    if let operationBytes { return operationBytes }
    // A key with an escape: the trees, read back from the bytes.
    guard let old = try? JSONValue(parsing: previous),
      let new = try? JSONValue(parsing: snapshotBytes)
    else { return nil }
    return old.writeDiff(to: new, into: &bytes)
  }
}
