import ReactorJSON

extension LineReader {
  /// What an event line held: its JSON, or nothing because it is a torn last line.
  enum ParsedLine {
    /// The line's JSON.
    case json(JSONValue)
    /// The last line, cut off without its newline (as a crash leaves it), that does not
    /// parse: the reader warns and stops.
    case torn(byteCount: Int)
  }

  /// The next line that is not blank, as every reader of trace and session lines takes it:
  /// counting lines in `number`, and turning a line past the limit or a failed read into the
  /// error that names the file.
  /// - Returns: The line, or `nil` at the end of the file.
  func nextEventLine(path: String, number: inout Int) throws(TraceReadError) -> Line? {
    while true {
      let next: Line?
      do throws(Failure) {
        next = try self.next()
      } catch {
        switch error {
        case .tooLong:
          throw .lineTooLong(path: path, line: number + 1, limit: maximumLineLength)
        case .readFailed(let reason):
          throw .readFailed(path: path, reason: reason)
        }
      }
      guard let line = next else { return nil }
      number += 1
      if !TraceReader.isBlank(buffer, line.range) { return line }
    }
  }

  /// The first line that is not blank, parsed: the header of a trace or a session, as both
  /// readers take it.
  /// - Throws: ``TraceReadError`` when the file is empty, unreadable, or its first line is too
  ///   long or not JSON.
  func headerLine(path: String, with parser: inout JSONParser) throws(TraceReadError) -> JSONValue {
    var first: Line?
    do throws(Failure) {
      repeat {
        first = try next()
      } while first.map { TraceReader.isBlank(buffer, $0.range) } == true
    } catch {
      switch error {
      case .tooLong:
        throw .notATrace(
          path: path, reason: "its first line is longer than \(maximumLineLength) bytes")
      case .readFailed(let reason):
        throw .readFailed(path: path, reason: reason)
      }
    }
    guard let first else { throw .empty(path: path) }
    do {
      return try TraceReader.parse(buffer, first.range, with: &parser)
    } catch {
      throw .notATrace(path: path, reason: "its first line is not JSON (\(error))")
    }
  }

  /// Parses an event line: its JSON, or a torn last line; any other line that does not
  /// parse is malformed.
  /// - Throws: ``TraceReadError/malformedLine(path:line:reason:)`` naming the line.
  func parse(
    _ line: Line, with parser: inout JSONParser, path: String, number: Int
  ) throws(TraceReadError) -> ParsedLine {
    do {
      return .json(try TraceReader.parse(buffer, line.range, with: &parser))
    } catch {
      guard line.isTerminated else { return .torn(byteCount: line.range.count) }
      throw .malformedLine(path: path, line: number, reason: "\(error)")
    }
  }
}
