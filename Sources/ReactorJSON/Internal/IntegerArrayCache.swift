#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The last arrays of Ints a ``CanonicalJSONEncoder`` wrote and their JSON, so that the next
/// value's arrays are written from them where their elements did not change.
///
/// A recorder encodes the state after every mutation, and a large state's arrays mostly
/// change in an element or two: formatting all of their integers again was most of the
/// encoding. An array is matched with the one written in the same place in the previous
/// value (the first array of Ints of the value with the previous value's first, and so on),
/// compared in blocks of ``blockLength`` elements with `memcmp`, and each equal block's bytes
/// are copied from the previous value's bytes, which the encoder keeps (where the array ended
/// up in them is its ``Entry/offset``); a block where one element changed is copied around
/// that element, which alone is formatted; the other blocks are formatted. The bytes are the
/// same either way: a block's bytes are its elements' formatting and the commas after them.
struct IntegerArrayCache {
  /// How many elements a block holds.
  static var blockLength: Int { 64 }
  /// How many arrays are remembered per value; later ones are always formatted.
  static var capacity: Int { 4 }
  /// The fewest elements of an array remembered: two blocks.
  static var shortestKept: Int { 2 * blockLength }

  /// An array written, and where each block starts in its JSON.
  struct Entry {
    var values: [Int]
    /// From the `[`, the offset of each block's first element, and of the closing `]` last.
    var blockStarts: [Int]
    /// The number of the value it was last written in.
    var value: Int
    /// Where its `[` is in that value's bytes, once the value's objects are in key order;
    /// `nil` when not known.
    var offset: Int?
    /// Where it was in the value before, when it was written there too with as many
    /// elements: its `[`, its ``blockStarts`` then, and which of its blocks are equal to
    /// that value's (a bit per block).
    var previousOffset: Int?
    var previousBlockStarts: [Int] = []
    var equalBlocks: [UInt64] = []
    /// The first element that changed alone in its block since that value, and where it
    /// started in that value's JSON (from the `[`).
    var changedElement: IntegerArrayChange.ChangedElement?
    /// During ``beginMoving(_:)``, the offset before the move.
    var moving: Int?
  }

  private var entries: [Entry] = []
  /// Which array of the value being encoded comes next.
  private var next = 0
  /// The number of the value being encoded, from 1.
  private(set) var valueNumber = 0

  /// Whether the value being encoded wrote an array that is remembered.
  private var remembersArraysOfThisValue = false
  /// The memory of ``changes()``'s list, kept from one value to the next: emptied when a value
  /// starts, so that the arrays its changes share with the entries are the entries' own again
  /// when they are written over.
  private var changeList: [IntegerArrayChange] = []

  /// Starts a new value: its first array is matched with the previous value's first.
  mutating func startValue() {
    changeList.removeAll(keepingCapacity: true)
    next = 0
    valueNumber &+= 1
    remembersArraysOfThisValue = false
  }

  /// Forgets where the arrays are: the value's bytes were written another way.
  mutating func forgetOffsets() {
    for index in entries.indices {
      entries[index].offset = nil
      entries[index].previousOffset = nil
    }
  }

  /// Appends the JSON of `values` to `bytes`, from the previous value's array in the same
  /// place where their blocks are equal, and remembers it for the next value.
  /// - Parameters:
  ///   - values: The array.
  ///   - bytes: The bytes of the value being written.
  ///   - previousValue: The bytes of the value written before it.
  mutating func write(
    _ values: [Int], to bytes: inout OutputBytes, previousValue: UnsafeBufferPointer<UInt8>
  ) {
    let index = next
    next += 1
    // A short array is formatted: keeping its bytes would cost more than formatting saves.
    guard index < Self.capacity, values.count >= Self.shortestKept else {
      var starts: [Int] = []
      Self.format(values, blockStarts: &starts, to: &bytes)
      return
    }
    let start = bytes.count
    remembersArraysOfThisValue = true
    if index < entries.count {
      // In place: the entry's arrays are reused.
      Self.rewrite(
        &entries[index], with: values, value: valueNumber, to: &bytes,
        previousValue: previousValue)
    } else {
      var starts: [Int] = []
      Self.format(values, blockStarts: &starts, to: &bytes)
      if index == entries.count {
        entries.append(
          Entry(values: values, blockStarts: starts, value: valueNumber, offset: start))
      }
    }
  }

  /// Writes `values` from `entry`, the array written in the same place in an earlier value,
  /// and makes `entry` theirs, written in value number `value`.
  ///
  /// Equal blocks are copied from `previousValue` when `entry` was written there, with as
  /// many elements, and is where the entry says; else the array is formatted.
  private static func rewrite(
    _ entry: inout Entry, with values: [Int], value: Int, to bytes: inout OutputBytes,
    previousValue: UnsafeBufferPointer<UInt8>
  ) {
    let start = bytes.count
    let hadPrevious =
      entry.values.count == values.count && entry.value == value - 1 && entry.offset != nil
    var starts = entry.previousBlockStarts
    var equal = entry.equalBlocks
    entry.previousBlockStarts = []
    entry.equalBlocks = []
    var changedElement: IntegerArrayChange.ChangedElement?
    if hadPrevious, let json = json(of: entry, in: previousValue) {
      changedElement = write(
        values, from: entry, json: json, blockStarts: &starts, equal: &equal, to: &bytes)
    } else {
      // Formatted: no block is known to be unchanged (the bits kept from the value before
      // would claim some were).
      starts.removeAll(keepingCapacity: true)
      equal.removeAll(keepingCapacity: true)
      format(values, blockStarts: &starts, to: &bytes)
    }
    entry.changedElement = changedElement
    entry.values = values
    entry.previousOffset = hadPrevious ? entry.offset : nil
    swap(&entry.previousBlockStarts, &entry.blockStarts)
    entry.blockStarts = starts
    entry.equalBlocks = equal
    entry.value = value
    entry.offset = start
  }

  // MARK: Objects put in key order

  /// Starts moving the members of an object whose members are at `range` in the bytes: the
  /// arrays of this value there move with them (``moved(from:count:to:)``), or are dropped
  /// with a repeated key's member.
  mutating func beginMoving(_ range: Range<Int>) {
    guard remembersArraysOfThisValue else { return }
    for index in entries.indices where entries[index].value == valueNumber {
      if let offset = entries[index].offset, range.contains(offset) {
        entries[index].moving = offset
        entries[index].offset = nil
      }
    }
  }

  /// The `count` bytes at `source` moved to `destination`.
  mutating func moved(from source: Int, count: Int, to destination: Int) {
    guard remembersArraysOfThisValue else { return }
    for index in entries.indices {
      if let offset = entries[index].moving, offset >= source, offset < source + count {
        entries[index].offset = offset - source + destination
        entries[index].moving = nil
      }
    }
  }

  /// Ends the moves: an array whose member did not move was dropped.
  mutating func endMoving() {
    guard remembersArraysOfThisValue else { return }
    for index in entries.indices { entries[index].moving = nil }
  }

  // MARK: What changed

  /// The arrays of the value just encoded that were written in the same place in the value
  /// before, with as many elements: where each is in both values' bytes, and which of its
  /// blocks did not change.
  mutating func changes() -> [IntegerArrayChange] {
    changeList.removeAll(keepingCapacity: true)
    for entry in entries where entry.value == valueNumber {
      guard let offset = entry.offset, let previousOffset = entry.previousOffset else {
        continue
      }
      if changeList.isEmpty { changeList.reserveCapacity(entries.count) }
      changeList.append(
        IntegerArrayChange(
          oldOffset: previousOffset, newOffset: offset,
          oldBlockStarts: entry.previousBlockStarts, newBlockStarts: entry.blockStarts,
          equalBlocks: entry.equalBlocks, changedElement: entry.changedElement))
    }
    return changeList
  }

  // MARK: Writing

  /// The JSON of the array `entry` describes, from its `[` to its `]`, in `value`'s bytes;
  /// `nil` when they do not hold it where the entry says.
  private static func json(
    of entry: Entry, in value: UnsafeBufferPointer<UInt8>
  ) -> UnsafeBufferPointer<UInt8>? {
    guard let offset = entry.offset, let end = entry.blockStarts.last, offset >= 0,
      offset + end < value.count, value[offset] == UInt8(ascii: "["),
      value[offset + end] == UInt8(ascii: "]")
    else { return nil }
    return UnsafeBufferPointer(rebasing: value[offset...(offset + end)])
  }

  /// Writes `values` block by block; returns the first element that changed alone in its
  /// block.
  ///
  /// A run of blocks equal to `previous`'s is copied from its JSON, `json`, in one move, and
  /// their bits set in `equal`; a block where one element changed is copied around that
  /// element, which alone is formatted; the other blocks are formatted.
  ///
  /// `starts` and `equal` keep the size they had for an array as long, and are filled
  /// through pointers: an append per block checked their capacity and uniqueness every time.
  private static func write(
    _ values: [Int], from previous: Entry, json: UnsafeBufferPointer<UInt8>,
    blockStarts starts: inout [Int], equal: inout [UInt64], to bytes: inout OutputBytes
  ) -> IntegerArrayChange.ChangedElement? {
    let start = bytes.count
    bytes.append(UInt8(ascii: "["))
    let count = values.count
    let blockCount = (count + blockLength - 1) / blockLength
    // Every start is written below; the bits are cleared.
    if starts.count != blockCount + 1 { starts = Array(repeating: 0, count: blockCount + 1) }
    let wordCount = (blockCount + 63) / 64
    if equal.count != wordCount { equal = Array(repeating: 0, count: wordCount) }
    var changedElement: IntegerArrayChange.ChangedElement?
    starts.withUnsafeMutableBufferPointer { starts in
      equal.withUnsafeMutableBufferPointer { equal in
        equal.update(repeating: 0)
        previous.blockStarts.withUnsafeBufferPointer { previousStarts in
          values.withUnsafeBufferPointer { new in
            previous.values.withUnsafeBufferPointer { old in
              let isSameStorage = new.baseAddress! == old.baseAddress!
              func isEqual(_ block: Int) -> Bool {
                let first = block * blockLength
                let end = min(first + blockLength, count)
                return isSameStorage
                  || memcmp(
                    new.baseAddress! + first, old.baseAddress! + first,
                    (end - first) * MemoryLayout<Int>.stride) == 0
              }
              var block = 0
              while block < blockCount {
                let runStart = block
                while block < blockCount && isEqual(block) { block += 1 }
                if block > runStart {
                  // Where the run's blocks start now, against where they started before.
                  let shift = bytes.count - start - previousStarts[runStart]
                  for equalBlock in runStart..<block {
                    starts[equalBlock] = previousStarts[equalBlock] + shift
                    equal[equalBlock >> 6] |= 1 << UInt64(equalBlock & 63)
                  }
                  bytes.append(
                    UnsafeBufferPointer(
                      rebasing: json[previousStarts[runStart]..<previousStarts[block]]))
                }
                guard block < blockCount else { break }
                starts[block] = bytes.count - start
                let first = block * blockLength
                let elements = first..<min(first + blockLength, count)
                if let element = loneChange(new, old, elements),
                  let oldStart = writeBlock(
                    json[previousStarts[block]..<previousStarts[block + 1]],
                    changing: element - first, to: new[element], in: &bytes)
                {
                  if changedElement == nil {
                    changedElement = IntegerArrayChange.ChangedElement(
                      index: element, oldStart: oldStart)
                  }
                } else {
                  formatElements(new, elements, last: count - 1, to: &bytes)
                }
                block += 1
              }
              starts[blockCount] = bytes.count - start
            }
          }
        }
      }
    }
    bytes.append(UInt8(ascii: "]"))
    return changedElement
  }

  /// The one element in `range` where `new` and `old` differ; `nil` when more than one does,
  /// or none.
  private static func loneChange(
    _ new: UnsafeBufferPointer<Int>, _ old: UnsafeBufferPointer<Int>, _ range: Range<Int>
  ) -> Int? {
    var changed: Int?
    for index in range where new[index] != old[index] {
      guard changed == nil else { return nil }
      changed = index
    }
    return changed
  }

  /// Writes the block whose JSON was `block`, its element at `position` now `value`; returns
  /// where that element started in the JSON `block` is a slice of.
  ///
  /// The bytes before and after the element are copied, the element formatted. `nil`, with
  /// nothing written, when the block holds fewer elements.
  ///
  /// The element is found by counting commas eight bytes at a time: the elements are
  /// integers, so every comma in the block ends one.
  private static func writeBlock(
    _ block: Slice<UnsafeBufferPointer<UInt8>>, changing position: Int, to value: Int,
    in bytes: inout OutputBytes
  ) -> Int? {
    let base = block.base.baseAddress!
    let comma = UInt8(ascii: ",")
    var elementStart = block.startIndex
    var commas = 0
    while commas < position, elementStart + 8 <= block.endIndex {
      let found = ByteWord.matches(ByteWord.load(base + elementStart), comma).nonzeroBitCount
      guard commas + found < position else { break }
      commas += found
      elementStart += 8
    }
    while commas < position, elementStart < block.endIndex {
      if base[elementStart] == comma { commas += 1 }
      elementStart += 1
    }
    guard commas == position else { return nil }
    var elementEnd = elementStart
    while elementEnd < block.endIndex, base[elementEnd] != comma { elementEnd += 1 }
    bytes.append(UnsafeBufferPointer(rebasing: block.base[block.startIndex..<elementStart]))
    bytes.write(maximumCount: ByteCursor.maximumIntegerCount) { $0.write(value) }
    bytes.append(UnsafeBufferPointer(rebasing: block.base[elementEnd..<block.endIndex]))
    return elementStart
  }

  /// Writes `values` as a JSON array of integers, noting where each block starts in
  /// `starts`.
  private static func format(
    _ values: [Int], blockStarts starts: inout [Int], to bytes: inout OutputBytes
  ) {
    let start = bytes.count
    bytes.append(UInt8(ascii: "["))
    values.withUnsafeBufferPointer { values in
      var first = 0
      while first < values.count {
        let end = min(first + blockLength, values.count)
        starts.append(bytes.count - start)
        formatElements(values, first..<end, last: values.count - 1, to: &bytes)
        first = end
      }
    }
    starts.append(bytes.count - start)
    bytes.append(UInt8(ascii: "]"))
  }

  /// Writes the elements in `range`, each followed by a comma unless it is the element at
  /// `last`.
  ///
  /// Through a cursor into memory reserved once for the longest integers: an append per
  /// integer cost more than formatting it.
  @inline(__always)
  private static func formatElements(
    _ values: UnsafeBufferPointer<Int>, _ range: Range<Int>, last: Int,
    to bytes: inout OutputBytes
  ) {
    bytes.write(maximumCount: range.count * (ByteCursor.maximumIntegerCount + 1)) { out in
      for index in range {
        out.write(values[index])
        if index != last { out.write(",") }
      }
    }
  }
}
