extension JSONValue {
  /// The operations that turn this value into `new`: empty when they are equal.
  ///
  /// Objects are compared member by member and arrays element by element, with appends and
  /// truncations for arrays that grew or shrank at the end. Where the changes to an array
  /// would take more operations than half its elements, the array is set whole.
  public func diff(to new: JSONValue) -> [TraceDiffOperation] {
    var output = DiffOperations()
    var path: [JSONPathComponent] = []
    Self.diff(self, new, path: &path, into: &output)
    return output.operations
  }

  /// Appends the operations of ``diff(to:)`` to `bytes`, serialized and separated by
  /// commas, without building them.
  /// - Returns: The bytes the operations take, without the commas.
  package func writeDiff(to new: JSONValue, into bytes: inout [UInt8]) -> Int {
    var output = DiffBytes(bytes: bytes)
    bytes = []  // Lets `output` change the bytes in place.
    var path: [JSONPathComponent] = []
    Self.diff(self, new, path: &path, into: &output)
    bytes = output.bytes
    return output.operationBytes
  }

  /// One walk over two values, for both outputs: the operations, or their serialized bytes.
  private static func diff(
    _ old: JSONValue, _ new: JSONValue, path: inout [JSONPathComponent],
    into output: inout some DiffOutput
  ) {
    switch (old, new) {
    case (.object(let oldObject), .object(let newObject)):
      let oldMembers = oldObject.members
      let newMembers = newObject.members
      var i = 0
      var j = 0
      while i < oldMembers.count || j < newMembers.count {
        if j == newMembers.count
          || (i < oldMembers.count && JSONObject.keyPrecedes(oldMembers[i].key, newMembers[j].key))
        {
          path.append(.key(oldMembers[i].key))
          output.write(path: path, .remove)
          path.removeLast()
          i += 1
        } else if i == oldMembers.count
          || !JSONObject.keysEqual(oldMembers[i].key, newMembers[j].key)
        {
          path.append(.key(newMembers[j].key))
          output.write(path: path, .set(newMembers[j].value))
          path.removeLast()
          j += 1
        } else {
          if oldMembers[i].value != newMembers[j].value {
            path.append(.key(newMembers[j].key))
            diff(oldMembers[i].value, newMembers[j].value, path: &path, into: &output)
            path.removeLast()
          }
          i += 1
          j += 1
        }
      }
    case (.array(let oldElements), .array(let newElements)):
      let start = output.mark
      let common = min(oldElements.count, newElements.count)
      for index in 0..<common where oldElements[index] != newElements[index] {
        path.append(.index(index))
        diff(oldElements[index], newElements[index], path: &path, into: &output)
        path.removeLast()
        if output.count - start.count > newElements.count / 2 { break }
      }
      if output.count - start.count > max(1, newElements.count / 2) {
        output.rewind(to: start)
        output.write(path: path, .set(new))
        return
      }
      if newElements.count > common {
        output.write(path: path, .append(newElements[common...]))
      } else if oldElements.count > common {
        output.write(path: path, .truncate(common))
      }
    default:
      if old != new { output.write(path: path, .set(new)) }
    }
  }

  /// Applies one diff operation in place.
  /// - Throws: Why the operation does not fit this value: a missing member, an index out of
  ///   range, a path through something that is not an object or array.
  public mutating func apply(_ operation: TraceDiffOperation) throws(TraceFormatError) {
    try apply(operation, at: operation.path[...])
  }

  private mutating func apply(
    _ operation: TraceDiffOperation, at path: ArraySlice<JSONPathComponent>
  ) throws(TraceFormatError) {
    guard let component = path.first else {
      switch operation {
      case .set(_, let value):
        self = value
      case .remove:
        throw TraceFormatError("cannot remove the whole state")
      case .append(_, let values):
        guard case .array(var elements) = self else {
          throw TraceFormatError(
            "cannot append at \(operation.path.dottedDescription): it is \(kindName)")
        }
        self = .null
        elements.append(contentsOf: values)
        self = .array(elements)
      case .truncate(_, let count):
        guard case .array(var elements) = self, count <= elements.count else {
          throw TraceFormatError(
            "cannot truncate \(operation.path.dottedDescription) to \(count) elements")
        }
        self = .null
        elements.removeSubrange(count...)
        self = .array(elements)
      }
      return
    }
    let rest = path.dropFirst()
    // The container is taken out of `self` (left `null`) so that it is uniquely referenced
    // and changed in place, not copied; matching `(component, self)` as a pair would copy it.
    switch component {
    case .key(let key):
      guard case .object(var object) = self else {
        throw Self.mismatch(operation, component, kindName)
      }
      self = .null
      defer { self = .object(object) }
      if rest.isEmpty, case .remove = operation {
        guard object[key] != nil else {
          throw TraceFormatError(
            "cannot remove \(operation.path.dottedDescription): there is no such member")
        }
        object[key] = nil
        return
      }
      if rest.isEmpty, case .set(_, let value) = operation {
        object.set(value, forKey: key)
        return
      }
      guard var child = object[key] else {
        throw TraceFormatError(
          "\(operation.path.dottedDescription): there is no member '\(key)'")
      }
      object.set(.null, forKey: key)
      try child.apply(operation, at: rest)
      object.set(child, forKey: key)
    case .index(let index):
      guard case .array(var elements) = self else {
        throw Self.mismatch(operation, component, kindName)
      }
      guard index < elements.count else {
        throw TraceFormatError(
          "\(operation.path.dottedDescription): index \(index) is out of range "
            + "(\(elements.count) elements)")
      }
      if rest.isEmpty, case .remove = operation {
        throw TraceFormatError("cannot remove array element \(operation.path.dottedDescription)")
      }
      self = .null
      defer { self = .array(elements) }
      var child = elements[index]
      elements[index] = .null
      try child.apply(operation, at: rest)
      elements[index] = child
    }
  }

  private static func mismatch(
    _ operation: TraceDiffOperation, _ component: JSONPathComponent, _ kindName: String
  ) -> TraceFormatError {
    TraceFormatError(
      "\(operation.path.dottedDescription): cannot use \(component) on \(kindName)")
  }
}

/// Where a diff's operations go, in order.
private protocol DiffOutput {
  /// A point to rewind to.
  associatedtype Mark: DiffMark
  /// How many operations were written.
  var count: Int { get }
  /// The current point.
  var mark: Mark { get }
  /// Writes one operation.
  mutating func write(path: [JSONPathComponent], _ change: TraceDiffOperation.Change)
  /// Forgets the operations written since `mark`.
  mutating func rewind(to mark: Mark)
}

/// A point in a ``DiffOutput``.
private protocol DiffMark {
  /// How many operations had been written.
  var count: Int { get }
}

/// Diff operations, collected.
private struct DiffOperations: DiffOutput {
  struct Mark: DiffMark {
    var count: Int
  }

  var operations: [TraceDiffOperation] = []
  var count: Int { operations.count }
  var mark: Mark { Mark(count: operations.count) }

  mutating func write(path: [JSONPathComponent], _ change: TraceDiffOperation.Change) {
    switch change {
    case .set(let value): operations.append(.set(path, value))
    case .remove: operations.append(.remove(path))
    case .append(let values): operations.append(.append(path, Array(values)))
    case .truncate(let count): operations.append(.truncate(path, count))
    }
  }

  mutating func rewind(to mark: Mark) {
    operations.removeSubrange(mark.count...)
  }
}

/// Diff operations, serialized and separated by commas as they are written.
private struct DiffBytes: DiffOutput {
  struct Mark: DiffMark {
    var count: Int
    var byteCount: Int
    var operationBytes: Int
  }

  var bytes: [UInt8]
  /// How many operations were written.
  var count = 0
  /// The bytes they take, without the commas between them.
  var operationBytes = 0

  var mark: Mark { Mark(count: count, byteCount: bytes.count, operationBytes: operationBytes) }

  mutating func write(path: [JSONPathComponent], _ change: TraceDiffOperation.Change) {
    if count > 0 { bytes.append(UInt8(ascii: ",")) }
    let start = bytes.count
    TraceDiffOperation.write(path: path, change, to: &bytes)
    operationBytes += bytes.count - start
    count += 1
  }

  mutating func rewind(to mark: Mark) {
    (count, operationBytes) = (mark.count, mark.operationBytes)
    bytes.removeSubrange(mark.byteCount...)
  }
}
