import ReactorJSON

extension LineWriter {
  /// Appends bytes written through a cursor, at most `maximumCount` of them, in one copy.
  ///
  /// The caller keeps track of commas, as with ``raw(_:)-(StaticString)``.
  mutating func raw(maximumCount: Int, _ body: (inout ByteCursor) -> Void) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumCount) { buffer in
      let start = buffer.baseAddress!
      var cursor = ByteCursor(start)
      body(&cursor)
      let count = cursor.pointer - start
      precondition(count <= maximumCount, "wrote past the bytes reserved")
      raw(UnsafeBufferPointer(start: start, count: count))
    }
  }
}
