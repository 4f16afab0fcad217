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
/// are copied from the previous JSON; the other blocks are formatted. The bytes are the same
/// either way: a block's bytes are its elements' formatting and the commas after them.
struct IntegerArrayCache {
  /// How many elements a block holds.
  static var blockLength: Int { 64 }
  /// How many arrays are remembered per value; later ones are always formatted.
  static var capacity: Int { 4 }
  /// The fewest elements of an array remembered: two blocks.
  static var shortestKept: Int { 2 * blockLength }

  /// An array written, its JSON, and where each block starts in it.
  struct Entry {
    var values: [Int]
    var json: [UInt8]
    /// The offset in `json` of each block's first element, and of the closing `]` last.
    var blockStarts: [Int]
  }

  private var entries: [Entry] = []
  /// Which array of the value being encoded comes next.
  private var next = 0

  /// Starts a new value: its first array is matched with the previous value's first.
  mutating func startValue() { next = 0 }

  /// Appends the JSON of `values` to `bytes`, from the previous value's array in the same
  /// place where their blocks are equal, and remembers it for the next value.
  mutating func write(_ values: [Int], to bytes: inout OutputBytes) {
    let index = next
    next += 1
    // A short array is formatted: keeping its bytes would cost more than formatting saves.
    guard index < Self.capacity, values.count >= Self.shortestKept else {
      var starts: [Int] = []
      Self.format(values, blockStarts: &starts, to: &bytes)
      return
    }
    let start = bytes.count
    var starts: [Int]
    if index < entries.count, entries[index].values.count == values.count {
      starts = entries[index].blockStarts
      starts.removeAll(keepingCapacity: true)
      Self.write(values, from: entries[index], blockStarts: &starts, to: &bytes)
    } else {
      starts = []
      Self.format(values, blockStarts: &starts, to: &bytes)
    }
    let written = UnsafeBufferPointer(start: bytes.base + start, count: bytes.count - start)
    if index < entries.count {
      entries[index].values = values
      entries[index].json.removeAll(keepingCapacity: true)
      entries[index].json.append(contentsOf: written)
      entries[index].blockStarts = starts
    } else if index == entries.count {
      entries.append(Entry(values: values, json: Array(written), blockStarts: starts))
    }
  }

  /// Writes `values` block by block: a block equal to `previous`'s is copied from its JSON.
  private static func write(
    _ values: [Int], from previous: Entry, blockStarts starts: inout [Int],
    to bytes: inout OutputBytes
  ) {
    let start = bytes.count
    bytes.append(UInt8(ascii: "["))
    let count = values.count
    values.withUnsafeBufferPointer { new in
      previous.values.withUnsafeBufferPointer { old in
        previous.json.withUnsafeBufferPointer { json in
          var block = 0
          var first = 0
          while first < count {
            let end = min(first + blockLength, count)
            starts.append(bytes.count - start)
            let isEqual =
              new.baseAddress! == old.baseAddress!
              || memcmp(
                new.baseAddress! + first, old.baseAddress! + first,
                (end - first) * MemoryLayout<Int>.stride) == 0
            if isEqual {
              let from = previous.blockStarts[block]
              bytes.append(
                UnsafeBufferPointer(
                  rebasing: json[from..<previous.blockStarts[block + 1]]))
            } else {
              formatElements(new, first..<end, last: count - 1, to: &bytes)
            }
            block += 1
            first = end
          }
        }
      }
    }
    starts.append(bytes.count - start)
    bytes.append(UInt8(ascii: "]"))
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
