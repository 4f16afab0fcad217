import Foundation
import ReactorCore
import ReactorExamples
import ReactorTracing
import Testing

extension TracingTests {
  @MainActor
  @Suite struct Reading {
    /// A small finished trace of the opaque reactor: header, 4 events, end.
    private func sampleTrace() throws -> [UInt8] {
      let reactor = OpaqueReactor()
      let recorder = try InMemoryTraceRecorder(recording: reactor)
      reactor.send(.poke(1))
      reactor.send(.poke(2))
      recorder.stop()
      return recorder.trace.serialized
    }

    private func lines(_ bytes: [UInt8]) -> [String] {
      String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    private func bytes(_ lines: [String]) -> [UInt8] {
      Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    @Test func linesOfTheRecordersExactLayoutReadAsTheSameEventsAsLinesLaidOutOtherwise()
      throws
    {
      // The reader takes a fast path for lines laid out exactly as the recorder writes them;
      // a space after the opening brace sends every event line the general way.
      let directory = repositoryRoot + "/Traces/"
      let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        .filter { $0.hasSuffix(".trace.jsonl") }.sorted()
      #expect(!names.isEmpty)
      for name in names {
        let original = Array(
          try String(contentsOfFile: directory + name, encoding: .utf8).utf8)
        var spaced = lines(original)
        for index in spaced.indices.dropFirst() {
          spaced[index].insert(" ", at: spaced[index].index(after: spaced[index].startIndex))
        }
        let fast = try readAll(original)
        let general = try readAll(bytes(spaced))
        #expect(fast.events.count > 10, "\(name)")
        #expect(fast.events == general.events, "\(name)")
        #expect(fast.warnings == general.warnings, "\(name)")
      }
    }

    @Test(arguments: [
      // Hashes: uppercase, and bytes just outside the digits and letters.
      ("hash", "ABCDEF0123456789"), ("hash", "0123456789abcdeg"), ("hash", "012345678:abcdef"),
      ("hash", "`123456789abcdef"), ("hash", "/123456789abcdef"), ("hash", "0123456789abcde"),
      // Times: 18 and 19 digits, past `Int64`, and a leading zero.
      ("t", "123456789012345678"), ("t", "1234567890123456789"), ("t", "92233720368547758070"),
      ("t", "012"),
    ])
    func hashesAndIntegersAtTheFastPathsEdgesReadAsTheGeneralPathReadsThem(
      member: String, value: String
    ) throws {
      // The fast path reads a hash 8 digits at a time and the first 18 digits of an integer
      // without overflow checks; what it takes or leaves must read as a line laid out
      // otherwise, which always takes the general path.
      var edited = lines(try sampleTrace())
      let line = try #require(edited.firstIndex { $0.contains(#""kind":"mutation""#) })
      let quote = member == "hash" ? "\"" : ""
      let pattern = try Regex(#""\#(member)":"# + quote + #"[0-9a-z]+"# + quote)
      edited[line] = edited[line].replacing(
        pattern, with: #""\#(member)":"# + quote + value + quote, maxReplacements: 1)
      #expect(edited[line].contains(value))
      var spaced = edited
      spaced[line].insert(" ", at: spaced[line].index(after: spaced[line].startIndex))
      #expect(outcome(reading: bytes(edited)) == outcome(reading: bytes(spaced)))
    }

    /// The events read, or the error without its column (a space moves it by one).
    private func outcome(reading bytes: [UInt8]) -> String {
      do {
        return "\(try readAll(bytes).events)"
      } catch {
        let text = error.description
        guard let column = text.range(of: "column "),
          let end = text[column.upperBound...].range(of: ": ")
        else { return text }
        return text.replacingCharacters(in: column.lowerBound..<end.upperBound, with: "")
      }
    }

    @Test func stateChangesLeftUnparsedReadLaterAsTheSameChanges() throws {
      // A replay comparing hashes has the reader only check simple state changes, and asks
      // for one where the hashes differ.
      let directory = repositoryRoot + "/Traces/"
      let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        .filter { $0.hasSuffix(".trace.jsonl") }.sorted()
      var skipped = 0
      for name in names {
        let bytes = Array(try String(contentsOfFile: directory + name, encoding: .utf8).utf8)
        let reader = try TraceReader(bytes: bytes, verifyingStates: false)
        reader.skipsStateChanges = true
        var events: [TraceEvent] = []
        while var event = try reader.next() {
          if case .mutation(var mutation) = event.kind {
            let state = reader.stateChangeOfLastEvent(mutation)
            if state != mutation.state { skipped += 1 }
            mutation.state = state
            event.kind = .mutation(mutation)
          }
          events.append(event)
        }
        #expect(events == (try readAll(bytes)).events, "\(name)")
      }
      #expect(skipped > 10)
    }

    /// What a replay reads of `bytes`, line by line, as `nextReplayLine` gives it (every
    /// mutation whole, from `lastMutation()`), and then the warnings or the error.
    ///
    /// With `readingAhead`, through a ``ReadAheadReplayReader`` of that many lines per batch
    /// and batches ahead.
    private func replayLines(
      _ bytes: [UInt8], skippingStates: Bool, readingAhead: (lines: Int, batches: Int)? = nil
    ) -> [String] {
      var read: [String] = []
      do {
        let trace = try TraceReader(bytes: bytes, verifyingStates: false)
        trace.skipsStateChanges = skippingStates
        let reader: any ReplayLineSource =
          if let readingAhead {
            ReadAheadReplayReader(
              trace, linesPerBatch: readingAhead.lines, batchesAhead: readingAhead.batches)
          } else {
            trace
          }
        while let line = try reader.nextReplayLine() {
          switch line {
          case .action(let id, let label):
            read.append("\(reader.lineNumber): action \(id) \(label) \(reader.warnings)")
          case .mutation(let mutation):
            read.append(
              "\(reader.lineNumber): mutation \(mutation.sequence) \(mutation.label) "
                + "\(String(describing: mutation.value)) "
                + "\(String(describing: mutation.action)) \(mutation.stateHash) "
                + "\(reader.lastMutation()) \(reader.warnings)")
          case .event(let event):
            read.append("\(reader.lineNumber): \(event) \(reader.warnings)")
          }
        }
        read.append("\(reader.lineNumber): \(reader.warnings)")
      } catch {
        read.append("error: \(error)")
      }
      return read
    }

    /// The same as ``replayLines(_:skippingStates:)``, from the events `next()` returns.
    private func eventLines(_ bytes: [UInt8]) -> [String] {
      var read: [String] = []
      do {
        let reader = try TraceReader(bytes: bytes, verifyingStates: false)
        while let event = try reader.next() {
          switch event.kind {
          case .action(let action):
            read.append(
              "\(reader.lineNumber): action \(action.id) \(action.label) \(reader.warnings)")
          case .mutation(let mutation):
            read.append(
              "\(reader.lineNumber): mutation \(event.sequence) \(mutation.label) "
                + "\(String(describing: mutation.value)) "
                + "\(String(describing: mutation.cause.action)) \(mutation.stateHash) "
                + "\(mutation) \(reader.warnings)")
          default:
            read.append("\(reader.lineNumber): \(event) \(reader.warnings)")
          }
        }
        read.append("\(reader.lineNumber): \(reader.warnings)")
      } catch {
        read.append("error: \(error)")
      }
      return read
    }

    @Test func aReplayReadsEveryLineAsNextReadsIt() throws {
      // A reduce replay reads lines without making their events; what it reads, and where a
      // line fails, must be what `next()` gives, whichever path the line takes.
      let directory = repositoryRoot + "/Traces/"
      var traces = try FileManager.default.contentsOfDirectory(atPath: directory)
        .filter { $0.hasSuffix(".trace.jsonl") }.sorted()
        .map { Array(try String(contentsOfFile: directory + $0, encoding: .utf8).utf8) }
      // The counter's lines are of the recorder's shape: the edits below reach the fast path.
      let counter = try String(contentsOfFile: directory + "counter.trace.jsonl", encoding: .utf8)
      let sample = lines(Array(counter.utf8))
      let mutation = try #require(sample.firstIndex { $0.contains(#""kind":"mutation""#) })
      let action = try #require(sample.firstIndex { $0.contains(#""kind":"action""#) })
      func edited(_ index: Int, _ edit: (inout String) -> Void) -> [UInt8] {
        var edited = sample
        edit(&edited[index])
        return bytes(edited)
      }
      traces += [
        // An unknown kind, skipped as the spec says.
        bytes(Array(sample[...1]) + [#"{"seq":9,"t":1,"kind":"later","x":1}"#] + sample[2...]),
        // Laid out otherwise: the general path.
        edited(mutation) { $0.insert(" ", at: $0.index(after: $0.startIndex)) },
        edited(action) { $0.insert(" ", at: $0.index(after: $0.startIndex)) },
        // A wrong hash, in both layouts: read as written, caught by the replay.
        edited(mutation) {
          $0 = $0.replacing(/"hash":"[0-9a-f]+"/, with: #""hash":"0123456789abcdef""#)
        },
        // Malformed: a missing comma, a bad hash, a seq that is not a number, a cut line.
        edited(mutation) { $0 = $0.replacingOccurrences(of: #","label""#, with: #" "label""#) },
        edited(mutation) {
          $0 = $0.replacing(/"hash":"[0-9a-f]+"/, with: #""hash":"ABCDEF0123456789""#)
        },
        edited(action) { $0 = $0.replacing(/"seq":[0-9]+/, with: #""seq":"two""#) },
        edited(mutation) { $0 = String($0.prefix($0.count - 3)) },
        // An event after the end line.
        bytes(sample + [sample[action]]),
        // A torn last line.
        Array((sample.dropLast().joined(separator: "\n") + "\n" + sample[action].prefix(20)).utf8),
      ]
      for (index, trace) in traces.enumerated() {
        let expected = eventLines(trace)
        #expect(!expected.isEmpty, "\(index)")
        #expect(replayLines(trace, skippingStates: true) == expected, "\(index)")
        #expect(replayLines(trace, skippingStates: false) == expected, "\(index)")
        // Read ahead on another thread, in batches of every size around the lines' count:
        // the same lines, numbers and warnings, and the first error at its line.
        for (lines, batches) in [(1, 1), (2, 1), (3, 2), (7, 3), (128, 2)] {
          #expect(
            replayLines(trace, skippingStates: true, readingAhead: (lines, batches)) == expected,
            "\(index) \(lines)×\(batches)")
        }
      }
    }

    @Test func aReadAheadReaderStoppedEarlyStopsItsThreadAndReadsAsEnded() throws {
      // A replay that stops at a divergence closes the reader while its thread waits for
      // room, batches ahead; and a reader dropped without closing stops it too.
      let counter = try String(
        contentsOfFile: repositoryRoot + "/Traces/counter.trace.jsonl", encoding: .utf8)
      let bytes = Array(counter.utf8)
      #expect(lines(bytes).count > 8)
      let reader = ReadAheadReplayReader(
        try TraceReader(bytes: bytes, verifyingStates: false), linesPerBatch: 1, batchesAhead: 1)
      #expect(try reader.nextReplayLine() != nil)
      #expect(try reader.nextReplayLine() != nil)
      reader.close()
      #expect(try reader.nextReplayLine() == nil)
      #expect(try reader.nextReplayLine() == nil)
      reader.close()
      for read in 0..<3 {
        let dropped = ReadAheadReplayReader(
          try TraceReader(bytes: bytes, verifyingStates: false), linesPerBatch: 1,
          batchesAhead: 1)
        for _ in 0..<read { _ = try dropped.nextReplayLine() }
      }
    }

    @Test func aLabelWithAnEscapeReadsTheSameAsWithout() throws {
      let reactor = LargeStateReactor()
      let recorder = try InMemoryTraceRecorder(recording: reactor)
      for step in 0..<20 { reactor.send(.set(index: step, value: step)) }
      recorder.stop()
      var edited = lines(recorder.trace.serialized)
      edited[1] = edited[1].replacingOccurrences(
        of: #""label":"set"#, with: #""label":"s\u0065t"#)
      #expect(edited[1] != lines(recorder.trace.serialized)[1])
      #expect(try readAll(recorder.trace.serialized).events == readAll(bytes(edited)).events)
    }

    private func readAll(_ bytes: [UInt8]) throws(TraceReadError) -> Trace {
      try Trace(bytes: bytes)
    }

    private func error(reading bytes: [UInt8]) -> String? {
      do {
        _ = try readAll(bytes)
        return nil
      } catch {
        return error.description
      }
    }

    @Test func aTornLastLineYieldsEveryCompleteEventAndAWarning() throws {
      let original = try sampleTrace()
      var torn = lines(original)
      torn.removeLast()  // the end line
      let cut = torn.removeLast()
      let crashed = Array((torn.joined(separator: "\n") + "\n" + cut.prefix(cut.count / 2)).utf8)

      let trace = try readAll(crashed)
      #expect(trace.events.count == 3)
      #expect(trace.warnings == [.tornLastLine(line: 5, byteCount: cut.utf8.count / 2)])
      #expect(
        trace.warnings[0].description
          == "line 5 is incomplete (\(cut.utf8.count / 2) bytes, cut off while writing); read every event before it"
      )
    }

    @Test func aMalformedLineFailsWithItsNumberAndTheReason() throws {
      var edited = lines(try sampleTrace())
      edited[2] = #"{"seq":2,"t":0,"kind":"mutation","id":1 "label":"x"}"#
      #expect(
        error(reading: bytes(edited))
          == "trace:3: malformed event: column 41: expected ',' or '}' after an object member, found '\"'"
          || error(reading: bytes(edited))?.hasPrefix("trace:3: malformed event: column 41") == true
      )

      edited = lines(try sampleTrace())
      edited[3] = #"{"t":0,"kind":"action","id":2,"label":"poke(2)","source":"sent"}"#
      #expect(error(reading: bytes(edited)) == "trace:4: malformed event: missing field 'seq'")

      edited = lines(try sampleTrace())
      edited[1] = #"{"seq":"one","t":0,"kind":"action","id":1,"label":"p","source":"sent"}"#
      #expect(
        error(reading: bytes(edited))
          == #"trace:2: malformed event: 'seq' must be an integer, found "one""#)

      edited = lines(try sampleTrace())
      edited.append(edited[1])
      #expect(
        error(reading: bytes(edited)) == "trace:7: malformed event: an event follows the end line")
    }

    @Test func aFileThatIsNotATraceFailsWithOneClearMessage() throws {
      #expect(error(reading: []) == "'trace' is empty, not a reactor-trace file")
      #expect(
        error(reading: Array("hello world\n".utf8))?.hasPrefix(
          "'trace' is not a reactor-trace file: its first line is not JSON") == true)
      #expect(
        error(reading: Array("{\"name\":\"package\"}\n".utf8))
          == #"'trace' is not a reactor-trace file: its first line has no "format" member"#)
      #expect(
        error(reading: Array("{\"format\":\"har\",\"version\":\"1.2\"}\n".utf8))
          == "'trace' is a 'har' file, not a reactor-trace file")
      #expect(
        error(reading: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00])?.hasPrefix(
          "'trace' is not a reactor-trace file") == true)
      #expect(
        (try? TraceReader(path: "/nonexistent/trace.jsonl")) == nil)
    }

    @Test func aNewerMajorVersionIsRefusedAndANewerMinorVersionIsRead() throws {
      var newer = lines(try sampleTrace())
      newer[0] = newer[0].replacingOccurrences(of: #""version":"1.1""#, with: #""version":"2.0""#)
      #expect(
        error(reading: bytes(newer))
          == "'trace' is a session trace (format 2.0, several reactors in one file), "
          + "not the trace of one reactor; read it as a session (SessionReader)")
      newer[0] = newer[0].replacingOccurrences(of: #""version":"2.0""#, with: #""version":"3.0""#)
      #expect(
        error(reading: bytes(newer))
          == "'trace' uses trace format 3.0, newer than this reader (1.x traces, 2.x sessions); "
          + "update reactor-trace to read it")

      var minor = lines(try sampleTrace())
      minor[0] = minor[0].replacingOccurrences(of: #""version":"1.1""#, with: #""version":"1.7""#)
      minor[0].removeLast()
      minor[0] += #","futureHeaderField":{"x":1}}"#
      minor[1].removeLast()
      minor[1] += #","futureEventField":[1,2]}"#
      minor.insert(#"{"seq":3,"t":5,"kind":"breakpoint","note":"new in 1.7"}"#, at: 3)
      let trace = try readAll(bytes(minor))
      #expect(trace.header.version == TraceFormatVersion(major: 1, minor: 7))
      #expect(trace.events.count == 5)
      #expect(trace.warnings == [.unknownEventKind("breakpoint", firstLine: 4)])
    }

    @Test func anEditedStateIsCaughtAtTheEditedEvent() throws {
      var edited = lines(try sampleTrace())
      // The second mutation (line 5) stores its state as a snapshot or diff holding 2.
      #expect(edited[4].contains(#"[1, 2]"#))
      edited[4] = edited[4].replacingOccurrences(of: #"[1, 2]"#, with: #"[1, 3]"#)
      let message = error(reading: bytes(edited))
      #expect(
        message?.hasPrefix("trace:5: the state after event 4 does not match its hash") == true)

      let unchecked = try TraceReader(bytes: bytes(edited), verifyingStates: false)
      var count = 0
      while try unchecked.next() != nil { count += 1 }
      #expect(count == 5)
    }

    @Test func anOverlongLineFailsWithoutBeingBuffered() throws {
      let directory = try TemporaryDirectory()
      let path = directory.file("long.jsonl")
      var trace = lines(try sampleTrace())
      trace.insert(#"{"seq":99,"pad":""# + String(repeating: "x", count: 300_000) + #""}"#, at: 2)
      try write(bytes(trace), to: path)
      let reader = try TraceReader(path: path, maximumLineLength: 100_000)
      #expect(try reader.next() != nil)
      #expect(throws: TraceReadError.lineTooLong(path: path, line: 3, limit: 100_000)) {
        try reader.next()
      }
    }

    @Test func readingIsStreamedFromDiskInChunks() throws {
      let directory = try TemporaryDirectory()
      let path = directory.file("many.jsonl")
      let reactor = CounterReactor(clock: ContinuousClock())
      let recorder = try InMemoryTraceRecorder(recording: reactor)
      for _ in 0..<5_000 { reactor.send(.decrease) }
      recorder.stop()
      try recorder.trace.write(to: path)
      let reader = try TraceReader(path: path)
      var count = 0
      while try reader.next() != nil { count += 1 }
      #expect(count == 20_001)
      #expect(reader.warnings.isEmpty)
    }
  }
}
