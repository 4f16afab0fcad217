/// What a ``CanonicalJSONEncoder`` knows of an array of Ints it wrote in two values in a row.
///
/// Where the array is in the bytes of each, where each of its blocks of elements starts,
/// and which blocks hold the same elements in both. ``CanonicalJSONDiff`` skips the blocks
/// that did not change instead of comparing their bytes, and goes straight to the block of a
/// changed element instead of counting the commas before it.
package struct IntegerArrayChange: Sendable {
  /// How many elements a block holds: block `b` starts with element `b * blockLength`.
  package static var blockLength: Int { IntegerArrayCache.blockLength }

  /// The offset of the array's `[` in the old value's bytes, and in the new value's.
  package let oldOffset: Int
  package let newOffset: Int
  /// From the `[`, the offset of each block's first element, then of the closing `]`: in the
  /// old bytes, and in the new ones.
  package let oldBlockStarts: [Int]
  package let newBlockStarts: [Int]
  /// A bit per block, set when the block holds the same elements in both values, and so the
  /// same bytes.
  package let equalBlocks: [UInt64]
  /// The first element that changed alone in its block, when the encoder knows it: the
  /// diff goes straight to it instead of comparing the block's bytes and counting its commas.
  package let changedElement: ChangedElement?

  /// An element of the array that changed alone in its block.
  package struct ChangedElement: Sendable, Equatable {
    /// Its index in the array.
    package let index: Int
    /// Where it starts in the old value's bytes, from the `[`.
    package let oldStart: Int
  }

  /// The number of blocks.
  var blockCount: Int { oldBlockStarts.count - 1 }

  /// The end of the run of blocks from `block` on that hold the same elements in both
  /// values: the first block after `block` that does not, or ``blockCount``; `block` itself
  /// when it does not.
  func equalRun(from block: Int) -> Int {
    var end = block
    while end < blockCount {
      let offset = end & 63
      // The blocks set in a row from `end` in its word, up to the word's end.
      let ones = (~(equalBlocks[end >> 6] >> UInt64(offset))).trailingZeroBitCount
      let rest = 64 - offset
      end += min(ones, rest)
      if ones < rest { break }
    }
    // The bits past the last block are never set.
    return min(end, blockCount)
  }

  /// Whether the change fits bytes `old` and `new` of the lengths given: the arrays' brackets
  /// where it says, and as many blocks in both.
  func fits(_ old: UnsafeBufferPointer<UInt8>, _ new: UnsafeBufferPointer<UInt8>) -> Bool {
    guard oldBlockStarts.count >= 2, oldBlockStarts.count == newBlockStarts.count,
      equalBlocks.count == (blockCount + 63) / 64, oldOffset >= 0, newOffset >= 0,
      let oldEnd = oldBlockStarts.last, let newEnd = newBlockStarts.last,
      oldOffset + oldEnd < old.count, newOffset + newEnd < new.count
    else { return false }
    if let element = changedElement {
      // In its block, in the old bytes.
      let block = element.index / Self.blockLength
      guard element.index >= 0, block < blockCount, oldBlockStarts[block] <= element.oldStart,
        element.oldStart < oldBlockStarts[block + 1]
      else { return false }
    }
    return old[oldOffset] == UInt8(ascii: "[") && old[oldOffset + oldEnd] == UInt8(ascii: "]")
      && new[newOffset] == UInt8(ascii: "[") && new[newOffset + newEnd] == UInt8(ascii: "]")
  }
}
