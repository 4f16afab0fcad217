import ReactorCore
import ReactorJSON

// The lines of a batch of captured events, written without building the events.

extension TraceEventEncoder {
  /// Appends the trace lines of a batch of captured events, newlines included: the bytes
  /// `encode(_:)` and `TraceEvent.write(to:)` give, without building the events.
  ///
  /// Payloads seen before are copied from ``PayloadCache``, and a state is serialized once,
  /// to measure, hash and write it.
  /// - Parameters:
  ///   - events: The events, in order.
  ///   - actions: The values of the action events, in order.
  ///   - mutations: The values of the mutation events, in order.
  ///   - states: The states of the mutation events, in order.
  ///   - line: Where the lines go.
  ///   - chunkSize: How many bytes `line` may gather before `drain` is called.
  ///   - hashJobs: Where the states' hashes go to be computed, here or by a helper
  ///     (``StateHashJobs``); every hash is in `line` before `drain` sees it.
  ///   - drain: Takes the bytes gathered so far and empties `line`; called whenever it holds
  ///     `chunkSize` bytes or more, so that a long batch is not held in memory whole, with
  ///     how many events, actions and mutations those bytes (and earlier ones) hold.
  mutating func writeLines(
    _ events: [CapturedEvent], actions: PayloadBuffer<Action>,
    mutations: PayloadBuffer<Mutation>, states: PayloadBuffer<State>, to line: inout LineWriter,
    chunkSize: Int, hashJobs: StateHashJobs,
    drain: (inout LineWriter, _ written: WrittenCount) -> Void
  ) {
    var nextAction = 0
    var nextMutation = 0
    // States go straight to canonical bytes: this batch's working memory for them.
    let canonical = CanonicalJSONEncoder()
    var hashes = PendingHashes(jobs: hashJobs)
    defer { hashes.resolve(in: &line) }
    for index in events.indices {
      if line.bytes.count >= chunkSize {
        hashes.resolve(in: &line)
        drain(&line, WrittenCount(events: index, actions: nextAction, mutations: nextMutation))
      }
      // The event's members read in place: a copy of the whole event, through its outlined
      // copy, at each use cost more than the action line it was copied for.
      let stamp = Stamp(
        sequence: events[index].sequence, nanoseconds: Int(events[index].time.traceNanoseconds))
      switch events[index].kind {
      case .action(let id, let origin):
        writeAction(actions[nextAction], id: id, origin: origin, stamp: stamp, to: &line)
        nextAction += 1
      case .mutation(let id, let origin, let publisher):
        writeMutation(
          mutations[nextMutation], id: id, origin: origin, publisher: publisher,
          state: states.address(at: nextMutation), stamp: stamp, to: &line, canonical: canonical,
          hashes: &hashes)
        nextMutation += 1
      default:
        line.appendLine(encode(StampedEvent<Action, Mutation, State>(events[index])))
      }
    }
  }

  /// How many of a batch's events, and of its action and mutation values, have their lines
  /// written.
  struct WrittenCount {
    var events: Int
    var actions: Int
    var mutations: Int
  }

  // The two lines below write what `TraceEvent.write(to:)` writes, member for member, from
  // shared runs of bytes.

  private mutating func writeAction(
    _ action: Action, id: Int, origin: Origin, stamp: Stamp,
    to line: inout LineWriter
  ) {
    switch origin {
    case .stream, .external: break
    case .sent, .action, .effect:
      // The common line, in one copy.
      withActionMembers(action) { members in
        // The line start's maximum leaves room for `,"source":"sent"}` and the newline.
        line.raw(maximumCount: Stamp.lineStartMaximumCount + members.count) { out in
          out.writeLineStart(stamp, #","kind":"action","id":"#, id)
          out.write(members)
          out.write(#","source":"sent"}"#)
          out.write("\n")
        }
      }
      return
    }
    line.raw(maximumCount: Stamp.lineStartMaximumCount) {
      $0.writeLineStart(stamp, #","kind":"action","id":"#, id)
    }
    line.raw(actionPayload(action).members)
    switch origin {
    case .stream(let name):
      line.raw(#","source":"stream","stream":"#)
      JSONWriter.writeString(name, to: &line.bytes)
      line.raw("}")
    case .external(let source):
      line.raw(#","source":"sent","external":"#)
      JSONWriter.writeString(source, to: &line.bytes)
      line.raw("}")
    case .sent, .action, .effect:
      line.raw(#","source":"sent"}"#)
    }
    line.endLine()
  }

  private mutating func writeMutation(
    _ mutation: Mutation, id: Int, origin: Origin, publisher: TraceEvent.Publisher?,
    state: UnsafePointer<State>, stamp: Stamp, to line: inout LineWriter,
    canonical: CanonicalJSONEncoder, hashes: inout PendingHashes
  ) {
    hashes.lendSpare(to: &snapshotBytes)
    let change = serializeStateChange(to: state, canonical: canonical, hashesLater: true)
    defer {
      // The line ends with the hash in quotes, `}` and a newline; a serialized state's hash
      // is left to `hashes`, which hashes several states at once, or has them hashed.
      if case .description = change {
      } else {
        hashes.append(
          previousBytes!, hashAt: line.bytes.count - ByteCursor.hashCount - 2, in: &line)
      }
    }
    if case .action(let action) = origin, let (stateKey, stateBytes, hash) = serialized(change) {
      // The common line, in one copy.
      withMutationMembers(mutation) { members in
        let maximumCount =
          Stamp.lineStartMaximumCount + 64 + ByteCursor.maximumIntegerCount + members.count
          + stateBytes.count
        line.raw(maximumCount: maximumCount) { out in
          out.writeLineStart(stamp, #","kind":"mutation","id":"#, id)
          out.write(members)
          out.write(#","cause":{"action":"#)
          out.write(action)
          out.write("}")
          out.write(stateKey)
          out.write(stateBytes)
          out.write(#","hash":"#)
          out.write(hash)
          out.write("}\n")
        }
      }
      return
    }
    line.raw(maximumCount: Stamp.lineStartMaximumCount) {
      $0.writeLineStart(stamp, #","kind":"mutation","id":"#, id)
    }
    line.raw(mutationPayload(mutation).members)
    if case .action(let action) = origin {
      line.raw(#","cause":{"action":"#)
      line.raw(action)
      line.raw("}")
    } else {
      line.raw(#","cause":"#)
      Self.cause(origin).write(to: &line, publisher: publisher)
    }
    let hash: TraceHash
    switch change {
    case .snapshot(let stateHash):
      line.raw(#","snapshot":"#)
      line.raw(snapshotBytes)
      hash = stateHash
    case .diff(let stateHash):
      line.raw(#","diff":"#)
      line.raw(diffBytes)
      hash = stateHash
    case .description(let description, let stateHash):
      line.raw(#","stateDescription":"#)
      JSONWriter.writeString(description, to: &line.bytes)
      hash = stateHash
    }
    line.raw(#","hash":"#)
    line.raw(hash)
    line.raw("}")
    line.endLine()
  }

  /// The member and bytes that store a serialized state, and its hash; `nil` for a
  /// description.
  private func serialized(
    _ change: SerializedStateChange
  ) -> (key: StaticString, bytes: [UInt8], hash: TraceHash)? {
    switch change {
    case .snapshot(let hash): (#","snapshot":"#, snapshotBytes, hash)
    case .diff(let hash): (#","diff":"#, diffBytes, hash)
    case .description: nil
    }
  }
}

/// An event's sequence number and time, in nanoseconds: what its line starts with.
///
/// Not nested in the generic encoder, which would make it generic and look its metadata up
/// at every event.
private struct Stamp {
  let sequence: Int
  let nanoseconds: Int

  /// The most bytes ``ByteCursor/writeLineStart(_:_:_:)`` writes.
  static var lineStartMaximumCount: Int { 64 + 3 * ByteCursor.maximumIntegerCount }
}

extension ByteCursor {
  /// Writes what every action and mutation line starts with: `{"seq":`, the sequence number,
  /// `,"t":`, the time, `kindAndID` (`,"kind":"action","id":`) and the id.
  fileprivate mutating func writeLineStart(_ stamp: Stamp, _ kindAndID: StaticString, _ id: Int) {
    write(#"{"seq":"#)
    write(stamp.sequence)
    write(#","t":"#)
    write(stamp.nanoseconds)
    write(kindAndID)
    write(id)
  }
}
