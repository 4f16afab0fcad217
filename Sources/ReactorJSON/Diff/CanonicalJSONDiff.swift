#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the diff between two states given as canonical JSON bytes, without building their
/// trees: the bytes `JSONValue.writeDiff(to:into:)` writes for the same two states.
///
/// The recorder keeps each state's canonical JSON (it hashes it anyway); walking the old and
/// the new bytes side by side finds the same operations as the tree diff: canonical objects
/// list their members in key order and canonical numbers, strings and literals are equal
/// exactly when their bytes are. Values that did not change are compared with one `memcmp`,
/// and values that did are copied as they are.
///
/// Keys are compared by their bytes between the quotes, which order as their UTF-8 does only
/// when they hold no escape; at the first key with one, the diff gives up (`nil`) and the
/// caller diffs the trees.
package struct CanonicalJSONDiff {
  /// A step of the path to a value: a member's key as written (quotes included), or an index.
  fileprivate enum Component {
    case key(UnsafeBufferPointer<UInt8>)
    case index(Int)
  }

  /// The memory a diff works in: a caller that diffs state after state keeps one, so that
  /// each diff does not allocate its own.
  ///
  /// `@unchecked Sendable`: between diffs it holds no element, so none of the pointers into
  /// a diff's bytes that a path holds while the diff runs.
  package struct Memory: @unchecked Sendable {
    fileprivate var path: [Component] = []
    fileprivate var ranges: [Int] = []

    /// Empty memory, which allocates nothing until a diff uses it.
    package init() {}
  }

  /// How much had been written at some point, to rewind to.
  private struct Mark {
    let count: Int
    let byteCount: Int
    let operationBytes: Int
  }

  private let old: UnsafeBufferPointer<UInt8>
  private let new: UnsafeBufferPointer<UInt8>
  private var bytes: [UInt8]
  private var count = 0
  private var operationBytes = 0
  private var path: [Component] = []
  /// The start and end of the elements of the arrays being compared, a stack.
  private var ranges: [Int] = []
  private var failed = false
  /// The arrays of Ints whose unchanged blocks are known, in the order they come in `old`.
  private let arrays: [IntegerArrayChange]

  /// A diff that works in `memory` and writes into `bytes`, which it takes without a copy
  /// until ``giveBack(_:_:)``.
  private init(
    old: UnsafeBufferPointer<UInt8>, new: UnsafeBufferPointer<UInt8>, bytes: inout [UInt8],
    arrays: [IntegerArrayChange], memory: inout Memory
  ) {
    self.old = old
    self.new = new
    self.bytes = []
    swap(&self.bytes, &bytes)
    swap(&path, &memory.path)
    swap(&ranges, &memory.ranges)
    // Room for a path eight deep at once: grown from nothing, it was reallocated twice.
    if path.capacity < 8 { path.reserveCapacity(8) }
    if arrays.count == 1 {
      // The common case, without a copy.
      self.arrays = arrays[0].fits(old, new) ? arrays : []
      return
    }
    var known = arrays.filter { $0.fits(old, new) }
    if known.count > 1 { known.sort { $0.oldOffset < $1.oldOffset } }
    // Arrays of Ints never nest; overlapping ones would not be what the encoder wrote.
    if zip(known, known.dropFirst()).contains(where: {
      $0.oldOffset + $0.oldBlockStarts.last! >= $1.oldOffset
    }) {
      known = []
    }
    self.arrays = known
  }

  /// Appends the operations that turn `old` into `new`, serialized and separated by commas,
  /// to `bytes`.
  /// - Parameters:
  ///   - old: The canonical JSON of the state before.
  ///   - new: The canonical JSON of the state after.
  ///   - bytes: Where the operations go.
  ///   - arrays: What the encoder of `old` and `new` knows of the arrays of Ints in both
  ///     (``CanonicalJSONEncoder/integerArrayChanges(since:)``): the blocks of elements that
  ///     did not change are skipped rather than compared. The operations are the same.
  ///   - memory: Memory to work in, kept from one diff to the next.
  /// - Returns: The bytes the operations take, without the commas; `nil`, with `bytes` as it
  ///   was, when a key holds an escape.
  package static func write(
    from old: UnsafeBufferPointer<UInt8>, to new: UnsafeBufferPointer<UInt8>,
    into bytes: inout [UInt8], arrays: [IntegerArrayChange] = [], memory: inout Memory
  ) -> Int? {
    let originalCount = bytes.count
    var diff = CanonicalJSONDiff(
      old: old, new: new, bytes: &bytes, arrays: arrays, memory: &memory)
    if !diff.writeScalarChanges(0..<old.count, 0..<new.count) {
      diff.diff(0..<old.count, 0..<new.count)
    }
    diff.giveBack(&bytes, &memory)
    if diff.failed {
      bytes.removeSubrange(originalCount...)
      return nil
    }
    return diff.operationBytes
  }

  /// Gives the bytes written and the memory back to the caller, the memory emptied.
  private mutating func giveBack(_ bytes: inout [UInt8], _ memory: inout Memory) {
    swap(&bytes, &self.bytes)
    path.removeAll(keepingCapacity: true)
    ranges.removeAll(keepingCapacity: true)
    swap(&memory.path, &path)
    swap(&memory.ranges, &ranges)
  }

  // MARK: One scalar changed

  /// Writes the diff when the two values differ only in numbers or literals, at most one in
  /// each array, as when a mutation changes a counter and one element of a large array: from
  /// the bytes around the differences alone, without listing the containers' members.
  ///
  /// The walk would give the same operations, in the same order: every object on the way has
  /// the same keys and every array the same number of elements (the bytes that differ hold no
  /// delimiter), so it finds the unequal members and elements in document order and sets each
  /// scalar; with one change per array, it never replaces an array whole. Gives up (`false`,
  /// nothing written) otherwise, and at any escape.
  /// - Parameters:
  ///   - oldValue: The old value's bytes: the whole state, or an array or object in it whose
  ///     path is ``path``.
  ///   - newValue: The new value's bytes.
  /// - Returns: Whether it wrote the diff.
  private mutating func writeScalarChanges(_ oldValue: Range<Int>, _ newValue: Range<Int>)
    -> Bool
  {
    let base = path.count
    let start = mark
    defer { path.removeSubrange(base...) }
    let oldBase = old.baseAddress! + oldValue.lowerBound
    let newBase = new.baseAddress! + newValue.lowerBound
    let oldCount = oldValue.count
    let newCount = newValue.count
    // The walk through the old bytes that keeps `path` up to date, where it has got to.
    var position = 0
    var isInString = false
    var isKey = false
    var expectsKey = false
    var keyStart = 0
    // The containers the walk is in, a stack of bits from the outermost: whether each is an
    // array, and whether it holds a change already (no memory to allocate, for a diff that
    // takes a microsecond). Deeper than 64 levels, the diff gives up.
    var depth = 0
    var isArray: UInt64 = 0
    var hasChange: UInt64 = 0
    // Aligned offsets in the old and the new bytes: what precedes them is equal, or changed.
    var oldOffset = 0
    var newOffset = 0
    var changes = 0
    func fail() -> Bool {
      rewind(to: start)
      return false
    }
    // The known array the equal runs are in or before, and the one the walk is in.
    var runArrays = KnownArrayCursor()
    var walkArrays = KnownArrayCursor()
    var walkArrayDepth = -1
    while true {
      // Blocks of arrays of Ints known to be equal are skipped; the bytes are compared up to
      // `stop`, the end of the next block that is not.
      let stop =
        arrays.isEmpty
        ? oldCount
        : skipEqualBlocks(
          &runArrays, oldValue.lowerBound, newValue.lowerBound, &oldOffset, &newOffset,
          oldCount: oldCount, newCount: newCount)
      // Equal bytes 32 at a time, then 8, then one: the runs between changes are long.
      while oldOffset + 32 <= stop && newOffset + 32 <= newCount
        && Self.equal32(oldBase + oldOffset, newBase + newOffset)
      {
        oldOffset += 32
        newOffset += 32
      }
      while oldOffset + 8 <= stop && newOffset + 8 <= newCount {
        let difference =
          UnsafeRawPointer(oldBase + oldOffset).loadUnaligned(as: UInt64.self)
          ^ UnsafeRawPointer(newBase + newOffset).loadUnaligned(as: UInt64.self)
        // Straight to the first byte that differs.
        let equalBytes = Self.equalLeadingBytes(difference, isLittleEndian: Self.isLittleEndian)
        oldOffset += equalBytes
        newOffset += equalBytes
        if equalBytes < 8 { break }
      }
      while oldOffset < stop && newOffset < newCount
        && oldBase[oldOffset] == newBase[newOffset]
      {
        oldOffset += 1
        newOffset += 1
      }
      if oldOffset == stop && stop < oldCount && newOffset < newCount { continue }
      if oldOffset == oldCount && newOffset == newCount { break }
      guard oldOffset < oldCount, newOffset < newCount else { return fail() }
      // The token holding the difference, in each value.
      var tokenStart = oldOffset
      while tokenStart > position && !Self.isDelimiter(oldBase[tokenStart - 1]) {
        tokenStart -= 1
      }
      guard tokenStart > 0, Self.isDelimiter(oldBase[tokenStart - 1]) else { return fail() }
      let newTokenStart = newOffset - (oldOffset - tokenStart)
      var oldEnd = oldOffset
      while oldEnd < oldCount && !Self.isDelimiter(oldBase[oldEnd]) { oldEnd += 1 }
      var newEnd = newOffset
      while newEnd < newCount && !Self.isDelimiter(newBase[newEnd]) { newEnd += 1 }
      guard oldEnd > tokenStart, newEnd > newTokenStart, oldEnd < oldCount, newEnd < newCount
      else { return fail() }
      // The path to the token, from the bytes before it.
      while position < tokenStart {
        if !isInString, Self.isInArray(depth, isArray) {
          if depth == walkArrayDepth, case .index(let index) = path[path.count - 1] {
            // A known array of Ints: straight to the block before the token.
            let array = arrays[walkArrays.array]
            let arrayStart = array.oldOffset - oldValue.lowerBound
            let target = min(tokenStart, arrayStart + array.oldBlockStarts.last!) - arrayStart
            if let changed = array.changedElement, arrayStart + changed.oldStart == tokenStart,
              changed.index > index, tokenStart > position
            {
              // The element the encoder knows changed: straight to it.
              position = tokenStart
              path[path.count - 1] = .index(changed.index)
              break
            }
            let block = Self.lastBlock(startingAtOrBefore: target, in: array.oldBlockStarts)
            let element = block * IntegerArrayChange.blockLength
            if element > index, arrayStart + array.oldBlockStarts[block] > position {
              position = arrayStart + array.oldBlockStarts[block]
              path[path.count - 1] = .index(element)
            }
          }
          let commas = Self.skipScalars(in: oldBase, from: &position, to: tokenStart)
          if commas > 0, case .index(let index) = path[path.count - 1] {
            path[path.count - 1] = .index(index + commas)
          }
          if position == tokenStart { break }
        }
        if isInString {
          ByteWord.skipStringCharacters(in: oldBase, from: &position, to: tokenStart)
          guard position < tokenStart else { break }
          let byte = oldBase[position]
          if byte == UInt8(ascii: "\\") { return fail() }
          if byte == UInt8(ascii: "\"") {
            isInString = false
            if isKey {
              path[path.count - 1] = .key(
                UnsafeBufferPointer(
                  rebasing: old[oldValue.lowerBound + keyStart...oldValue.lowerBound + position]))
            }
          }
          position += 1
          continue
        }
        let byte = oldBase[position]
        switch byte {
        case UInt8(ascii: "\""):
          isInString = true
          isKey = expectsKey
          expectsKey = false
          keyStart = position
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          guard depth < 64 else { return fail() }
          let bit: UInt64 = 1 << UInt64(depth)
          if byte == UInt8(ascii: "[") { isArray |= bit } else { isArray &= ~bit }
          hasChange &= ~bit
          depth += 1
          path.append(.index(0))
          expectsKey = byte == UInt8(ascii: "{")
          if byte == UInt8(ascii: "["), !arrays.isEmpty,
            walkArrays.find(oldValue.lowerBound + position, in: arrays)
          {
            walkArrayDepth = depth
          }
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          guard depth > 0 else { return fail() }
          if depth == walkArrayDepth { walkArrayDepth = -1 }
          depth -= 1
          path.removeLast()
          expectsKey = false
        case UInt8(ascii: ","):
          if Self.isInArray(depth, isArray) {
            if case .index(let index) = path[path.count - 1] {
              path[path.count - 1] = .index(index + 1)
            }
          } else {
            expectsKey = true
          }
        default:
          break
        }
        position += 1
      }
      let before = oldBase[tokenStart - 1]
      guard !isInString, depth > 0,
        Self.isInArray(depth, isArray)
          ? before == UInt8(ascii: ",") || before == UInt8(ascii: "[")
          : before == UInt8(ascii: ":")
      else { return fail() }
      // At most one change in each array, this one's and those around it.
      let arrays = isArray & (depth == 64 ? ~0 : (1 << UInt64(depth)) - 1)
      if hasChange & arrays != 0 { return fail() }
      hasChange |= arrays
      writeSet(newValue.lowerBound + newTokenStart..<newValue.lowerBound + newEnd)
      changes += 1
      position = oldEnd
      oldOffset = oldEnd
      newOffset = newEnd
    }
    return changes > 0 || fail()
  }

  // MARK: Known arrays of Ints

  /// A place in the list of known arrays, which the walk and the equal runs go through in
  /// order.
  private struct KnownArrayCursor {
    /// The array at or after the place.
    var array = 0
    /// In that array, the block at or after the place.
    var block = 0

    /// Moves to the array whose `[` is at `offset` in the old bytes, if there is one;
    /// returns whether there is.
    mutating func find(_ offset: Int, in arrays: [IntegerArrayChange]) -> Bool {
      while array < arrays.count && arrays[array].oldOffset < offset {
        array += 1
        block = 0
      }
      return array < arrays.count && arrays[array].oldOffset == offset
    }
  }

  /// Skips, from `oldOffset` and `newOffset` on, the blocks of a known array that hold the
  /// same elements in both values, when the offsets are at the same place in such a block
  /// of each; returns the offset in the old value up to which bytes should be compared
  /// next: the end of the next block that is not skipped, the start of the next known
  /// array's elements, or `oldCount`.
  ///
  /// Skipping is comparing: such a block's bytes are the same in both values.
  private func skipEqualBlocks(
    _ cursor: inout KnownArrayCursor, _ oldStart: Int, _ newStart: Int, _ oldOffset: inout Int,
    _ newOffset: inout Int, oldCount: Int, newCount: Int
  ) -> Int {
    while cursor.array < arrays.count {
      let array = arrays[cursor.array]
      let position = oldStart + oldOffset
      if position < array.oldOffset + array.oldBlockStarts[0] {
        // Before the array's elements.
        return min(oldCount, array.oldOffset + array.oldBlockStarts[0] - oldStart)
      }
      if position >= array.oldOffset + array.oldBlockStarts[array.blockCount] {
        cursor.array += 1
        cursor.block = 0
        continue
      }
      while array.oldOffset + array.oldBlockStarts[cursor.block + 1] <= position {
        cursor.block += 1
      }
      let block = cursor.block
      // The run of equal blocks from this one: from the same place in this block of both
      // values to the end of the run, the bytes are the same.
      let end = array.equalRun(from: block)
      let oldNext = array.oldOffset + array.oldBlockStarts[max(end, block + 1)] - oldStart
      let isAligned =
        newStart + newOffset - (array.newOffset + array.newBlockStarts[block])
        == position - (array.oldOffset + array.oldBlockStarts[block])
      guard end > block, isAligned else {
        if isAligned, let changed = array.changedElement,
          changed.index / IntegerArrayChange.blockLength == block,
          array.oldOffset + changed.oldStart > position
        {
          // A block where one element changed: the bytes before it are the same in both.
          let skipped = array.oldOffset + changed.oldStart - position
          oldOffset += skipped
          newOffset += skipped
        }
        return min(oldCount, oldNext)
      }
      let newNext = array.newOffset + array.newBlockStarts[end] - newStart
      guard oldNext <= oldCount, newNext <= newCount else { return min(oldCount, oldNext) }
      oldOffset = oldNext
      newOffset = newNext
      cursor.block = end
      guard end == array.blockCount else { continue }
      // At the `]`.
      cursor.array += 1
      cursor.block = 0
    }
    return oldCount
  }

  /// Whether the innermost of the `depth` containers the walk is in is an array, given a bit
  /// per container from the outermost, set for an array.
  ///
  /// A static function, not one nested in the walk: a nested function that reads the walk's
  /// variables checks exclusive access to them at run time on every call.
  @inline(__always)
  private static func isInArray(_ depth: Int, _ isArray: UInt64) -> Bool {
    depth > 0 && isArray >> UInt64(depth - 1) & 1 == 1
  }

  /// The last block whose first element starts at or before `offset` (from the `[`).
  private static func lastBlock(startingAtOrBefore offset: Int, in starts: [Int]) -> Int {
    // The blocks are `starts[0..<count - 1]`; the first starts at or before any element.
    var low = 0
    var high = starts.count - 2
    while low < high {
      let middle = (low + high + 1) / 2
      if starts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    return low
  }

  /// Moves `position` over the numbers, literals and commas of an array, up to `end` or the
  /// next quote, bracket or brace; returns the commas passed: the elements it moved past.
  ///
  /// Eight bytes at a time while none of them is a quote, bracket or brace, counting the commas
  /// among them at once: the walk to an element deep in a large array of numbers.
  private static func skipScalars(
    in base: UnsafePointer<UInt8>, from position: inout Int, to end: Int
  ) -> Int {
    var commas = 0
    // First, while every byte is one of `+,-./0123456789:;<=>?` (as in an array of integers
    // and plain decimals), with a test that is cheaper than looking for each stop: a byte
    // outside that range (a stop, a letter, a quote) hands over to the loop after.
    let highBits: UInt64 = 0x8080_8080_8080_8080
    while position + 8 <= end {
      let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
      // A high bit set: the byte is at least 0x40 (adding 0x40 sets it), or below 0x2B (the
      // byte with its high bit set, less 0x2B, stays at or above 0x80 only from 0x2B on).
      let outside =
        ((word &+ 0x4040_4040_4040_4040) | word | ~((word | highBits) &- 0x2B2B_2B2B_2B2B_2B2B))
        & highBits
      if outside != 0 { break }
      commas += ByteWord.matches(word, UInt8(ascii: ",")).nonzeroBitCount
      position += 8
    }
    while position + 8 <= end {
      let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
      // `[` and `{`, `]` and `}` differ only in the bit 0x20: one comparison finds each pair.
      let folded = word | 0x2020_2020_2020_2020
      let stops =
        ByteWord.matches(word, UInt8(ascii: "\"")) | ByteWord.matches(folded, UInt8(ascii: "{"))
        | ByteWord.matches(folded, UInt8(ascii: "}"))
      if stops != 0 { break }
      commas += ByteWord.matches(word, UInt8(ascii: ",")).nonzeroBitCount
      position += 8
    }
    while position < end {
      switch base[position] {
      case UInt8(ascii: ","): commas += 1
      case UInt8(ascii: "\""), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"),
        UInt8(ascii: "}"):
        return commas
      default: break
      }
      position += 1
    }
    return commas
  }

  /// Whether the machine stores the lowest byte of a word first.
  private static var isLittleEndian: Bool { 1.littleEndian == 1 }

  /// How many bytes two words loaded from memory have in common before the first that
  /// differs (8 when they are equal), given their exclusive or: the byte lowest in memory is
  /// the word's lowest on a little-endian machine, its highest on a big-endian one.
  @inline(__always)
  static func equalLeadingBytes(_ difference: UInt64, isLittleEndian: Bool) -> Int {
    (isLittleEndian ? difference.trailingZeroBitCount : difference.leadingZeroBitCount) / 8
  }

  /// Whether the 32 bytes at `first` equal the 32 at `second`.
  @inline(__always)
  private static func equal32(_ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>)
    -> Bool
  {
    let a = UnsafeRawPointer(first)
    let b = UnsafeRawPointer(second)
    let difference =
      (a.loadUnaligned(as: UInt64.self) ^ b.loadUnaligned(as: UInt64.self))
      | (a.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        ^ b.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
      | (a.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
        ^ b.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
      | (a.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
        ^ b.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
    return difference == 0
  }

  /// Whether `byte` ends a number or a literal in canonical JSON.
  private static func isDelimiter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]"),
      UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "\""), UInt8(ascii: "\\"):
      true
    default:
      false
    }
  }

  // MARK: Walking

  private mutating func diff(_ oldValue: Range<Int>, _ newValue: Range<Int>) {
    switch (old[oldValue.lowerBound], new[newValue.lowerBound]) {
    case (UInt8(ascii: "{"), UInt8(ascii: "{")):
      diffObjects(oldValue, newValue)
    case (UInt8(ascii: "["), UInt8(ascii: "[")):
      diffArrays(oldValue, newValue)
    default:
      if !equal(oldValue, newValue) { writeSet(newValue) }
    }
  }

  private mutating func diffObjects(_ oldObject: Range<Int>, _ newObject: Range<Int>) {
    var oldMember = member(in: old, at: oldObject.lowerBound + 1)
    var newMember = member(in: new, at: newObject.lowerBound + 1)
    while !failed {
      switch (oldMember, newMember) {
      case (nil, nil):
        return
      case (let removed?, nil):
        writeRemove(removed)
        oldMember = member(in: old, after: removed)
      case (nil, let added?):
        writeSet(added)
        newMember = member(in: new, after: added)
      case (let oldCurrent?, let newCurrent?):
        if Self.key(oldCurrent.key, in: old, precedes: newCurrent.key, in: new) {
          writeRemove(oldCurrent)
          oldMember = member(in: old, after: oldCurrent)
        } else if !Self.bytes(old, oldCurrent.key, equal: new, newCurrent.key) {
          writeSet(newCurrent)
          newMember = member(in: new, after: newCurrent)
        } else {
          if !equal(oldCurrent.value, newCurrent.value) {
            path.append(.key(UnsafeBufferPointer(rebasing: new[newCurrent.key])))
            diff(oldCurrent.value, newCurrent.value)
            path.removeLast()
          }
          oldMember = member(in: old, after: oldCurrent)
          newMember = member(in: new, after: newCurrent)
        }
      }
    }
  }

  private mutating func diffArrays(_ oldArray: Range<Int>, _ newArray: Range<Int>) {
    // One changed number or literal, as in a large state's array: without listing elements.
    if writeScalarChanges(oldArray, newArray) { return }
    // The elements' bounds, pushed on `ranges`: the old array's, then the new one's.
    let base = ranges.count
    let oldCount = pushElements(of: old, oldArray)
    let newCount = pushElements(of: new, newArray)
    defer { ranges.removeSubrange(base...) }
    let newBase = base + 2 * oldCount
    let start = mark
    let common = min(oldCount, newCount)
    for index in 0..<common {
      let oldElement = ranges[base + 2 * index]..<ranges[base + 2 * index + 1]
      let newElement = ranges[newBase + 2 * index]..<ranges[newBase + 2 * index + 1]
      if equal(oldElement, newElement) { continue }
      path.append(.index(index))
      diff(oldElement, newElement)
      path.removeLast()
      if count - start.count > newCount / 2 { break }
    }
    if count - start.count > max(1, newCount / 2) {
      rewind(to: start)
      writeSet(newArray)
      return
    }
    if newCount > common {
      writeAppend(ranges[newBase + 2 * common]..<ranges[newBase + 2 * newCount - 1])
    } else if oldCount > common {
      writeTruncate(common)
    }
  }

  /// Pushes the start and end of each element of the array at `array` in `text` on
  /// ``ranges``; returns how many there are.
  private mutating func pushElements(of text: UnsafeBufferPointer<UInt8>, _ array: Range<Int>)
    -> Int
  {
    var position = array.lowerBound + 1
    var elements = 0
    while text[position] != UInt8(ascii: "]") {
      let end = Self.valueEnd(in: text, from: position)
      ranges.append(position)
      ranges.append(end)
      elements += 1
      position = text[end] == UInt8(ascii: ",") ? end + 1 : end
    }
    return elements
  }

  /// A member of an object: its key, as written, and its value.
  private struct Member {
    let key: Range<Int>
    let value: Range<Int>
  }

  /// The member after `member` in its object, or `nil` after the last one.
  private mutating func member(in text: UnsafeBufferPointer<UInt8>, after member: Member)
    -> Member?
  {
    let end = member.value.upperBound
    return text[end] == UInt8(ascii: ",") ? self.member(in: text, at: end + 1) : nil
  }

  /// The member starting at `position`, or `nil` at the end of its object; a key holding an
  /// escape fails the diff.
  private mutating func member(in text: UnsafeBufferPointer<UInt8>, at position: Int) -> Member? {
    guard text[position] == UInt8(ascii: "\"") else { return nil }
    var keyEnd = position + 1
    while text[keyEnd] != UInt8(ascii: "\"") {
      if text[keyEnd] == UInt8(ascii: "\\") {
        failed = true
        return nil
      }
      keyEnd += 1
    }
    keyEnd += 1
    // After the key, a colon.
    let valueStart = keyEnd + 1
    return Member(
      key: position..<keyEnd, value: valueStart..<Self.valueEnd(in: text, from: valueStart))
  }

  /// Where the value starting at `start` ends.
  private static func valueEnd(in text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var position = start
    var depth = 0
    repeat {
      switch text[position] {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        position += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        position += 1
      case UInt8(ascii: "\""):
        position += 1
        while text[position] != UInt8(ascii: "\"") {
          position += text[position] == UInt8(ascii: "\\") ? 2 : 1
        }
        position += 1
      case UInt8(ascii: ","), UInt8(ascii: ":"):
        position += 1
      default:
        // A number or a literal: up to the next delimiter.
        while position < text.count {
          let byte = text[position]
          if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
            break
          }
          position += 1
        }
      }
    } while depth > 0
    return position
  }

  /// Whether the old value at `oldValue` and the new one at `newValue` are equal: in
  /// canonical JSON, whether their bytes are.
  private func equal(_ oldValue: Range<Int>, _ newValue: Range<Int>) -> Bool {
    Self.bytes(old, oldValue, equal: new, newValue)
  }

  private static func bytes(
    _ first: UnsafeBufferPointer<UInt8>, _ firstRange: Range<Int>,
    equal second: UnsafeBufferPointer<UInt8>, _ secondRange: Range<Int>
  ) -> Bool {
    firstRange.count == secondRange.count
      && memcmp(
        first.baseAddress! + firstRange.lowerBound, second.baseAddress! + secondRange.lowerBound,
        firstRange.count) == 0
  }

  /// Whether the key written at `first` precedes the one at `second`, by their UTF-8.
  private static func key(
    _ first: Range<Int>, in firstText: UnsafeBufferPointer<UInt8>, precedes second: Range<Int>,
    in secondText: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    // Between the quotes.
    JSONObject.keyPrecedes(
      UnsafeBufferPointer(rebasing: firstText[first.lowerBound + 1..<first.upperBound - 1]),
      UnsafeBufferPointer(rebasing: secondText[second.lowerBound + 1..<second.upperBound - 1]))
  }

  // MARK: Writing, as `TraceDiffOperation.write(path:_:to:)` does

  private var mark: Mark {
    Mark(count: count, byteCount: bytes.count, operationBytes: operationBytes)
  }

  private mutating func rewind(to mark: Mark) {
    (count, operationBytes) = (mark.count, mark.operationBytes)
    bytes.removeSubrange(mark.byteCount...)
  }

  /// Writes that the value at the path is set to the new bytes at `value`.
  ///
  /// In one copy, through a cursor: the common operation, two of them for every mutation of a
  /// large state, cost ten appends each checking capacity and uniqueness.
  private mutating func writeSet(_ value: Range<Int>) {
    let valueBytes = UnsafeBufferPointer(rebasing: new[value])
    // A comma, `{`, the path, `,"v":`, the value, `}`.
    let maximumCount = 2 + pathMaximumCount + 5 + valueBytes.count + 1
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumCount) { buffer in
      let first = buffer.baseAddress!
      var out = ByteCursor(first)
      if count > 0 { out.write(",") }
      let start = out.pointer
      out.write("{")
      writePath(to: &out)
      out.write(#","v":"#)
      out.write(valueBytes)
      out.write("}")
      precondition(out.pointer - first <= maximumCount, "wrote past the bytes reserved")
      operationBytes += out.pointer - start
      count += 1
      bytes.append(contentsOf: UnsafeBufferPointer(start: first, count: out.pointer - first))
    }
  }

  /// Writes that the old object's `member` is removed.
  private mutating func writeRemove(_ member: Member) {
    path.append(.key(UnsafeBufferPointer(rebasing: old[member.key])))
    writeRemove()
    path.removeLast()
  }

  /// Writes that the new object's `member` is set whole.
  private mutating func writeSet(_ member: Member) {
    path.append(.key(UnsafeBufferPointer(rebasing: new[member.key])))
    writeSet(member.value)
    path.removeLast()
  }

  private mutating func writeRemove() {
    write {
      $0.writePath()
      $0.append(#","remove":true"#)
    }
  }

  private mutating func writeAppend(_ elements: Range<Int>) {
    write {
      $0.append(#""append":["#)
      $0.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0.new[elements]))
      $0.append("],")
      $0.writePath()
    }
  }

  private mutating func writeTruncate(_ elements: Int) {
    write {
      $0.writePath()
      $0.append(#","truncate":"#)
      JSONWriter.writeInteger(Int64(elements), to: &$0.bytes)
    }
  }

  /// Writes one operation: a comma after the one before, then `{`, `members`, `}`.
  private mutating func write(_ members: (inout Self) -> Void) {
    if count > 0 { bytes.append(UInt8(ascii: ",")) }
    let start = bytes.count
    bytes.append(UInt8(ascii: "{"))
    members(&self)
    bytes.append(UInt8(ascii: "}"))
    operationBytes += bytes.count - start
    count += 1
  }

  /// Appends `text`'s bytes in one copy (a `String`'s UTF-8 view is appended byte by byte).
  private mutating func append(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  private mutating func writePath() {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: pathMaximumCount) { buffer in
      var out = ByteCursor(buffer.baseAddress!)
      writePath(to: &out)
      bytes.append(
        contentsOf: UnsafeBufferPointer(
          start: buffer.baseAddress!, count: out.pointer - buffer.baseAddress!))
    }
  }

  /// The most bytes ``writePath(to:)`` writes.
  private var pathMaximumCount: Int {
    var count = 6  // `"p":[` and `]`.
    for component in path {
      switch component {
      case .key(let key): count += key.count + 1
      case .index: count += ByteCursor.maximumIntegerCount + 1
      }
    }
    return count
  }

  /// Writes `"p":` and the path.
  private func writePath(to out: inout ByteCursor) {
    out.write(#""p":["#)
    for index in path.indices {
      if index > 0 { out.write(",") }
      switch path[index] {
      case .key(let key): out.write(key)
      case .index(let element): out.write(element)
      }
    }
    out.write("]")
  }
}
