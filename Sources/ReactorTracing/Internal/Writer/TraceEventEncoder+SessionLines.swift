import ReactorCore
import ReactorJSON

// Session lines: a session lane's actions and mutations.

extension TraceEventEncoder {
  /// An action or mutation of a session lane, encoded before it is numbered: what its line
  /// holds besides `seq`, `t`, its reactor and `from`.
  ///
  /// A mutation's state is encoded first because encoding a state that holds a reactor the
  /// session does not record yet introduces that reactor, whose introduction comes first.
  struct SessionPart {
    fileprivate enum Kind {
      case action(PayloadCache.Entry, id: Int, origin: Origin)
      case mutation(PayloadCache.Entry, id: Int, origin: Origin, change: SerializedStateChange)
    }

    fileprivate let kind: Kind
  }

  /// Encodes an action for a session lane's line.
  mutating func sessionAction(_ action: Action, id: Int, origin: Origin) -> SessionPart {
    SessionPart(kind: .action(actionPayload(action), id: id, origin: origin))
  }

  /// Encodes a mutation and the state it made for a session lane's line: the state straight
  /// to canonical bytes when its type is `Encodable`, as ``writeLines(_:actions:mutations:states:to:chunkSize:drain:)``
  /// writes it, and diffed between canonical bytes.
  mutating func sessionMutation(
    _ mutation: Mutation, id: Int, origin: Origin, state: State, canonical: CanonicalJSONEncoder
  ) -> SessionPart {
    let payload = mutationPayload(mutation)
    let change = withUnsafePointer(to: state) {
      serializeStateChange(to: $0, canonical: canonical, hashesLater: false)
    }
    return SessionPart(kind: .mutation(payload, id: id, origin: origin, change: change))
  }

  /// Appends the session line of an encoded action or mutation, newline included: the bytes
  /// `TraceEvent.write(to:reactor:)` gives for the event ``encode(_:)`` makes, with `from`.
  ///
  /// Call it right after the part was encoded: a mutation's state is read from this
  /// encoder's buffers.
  func writeSessionLine(
    _ part: SessionPart, sequence: Int, time: Duration, reactor: Int,
    from: TraceEvent.ReactorOrigin?, to line: inout LineWriter
  ) {
    // Integers through the cursor: the generic writer costs hundreds of instructions each.
    let integers = 8 * ByteCursor.maximumIntegerCount
    switch part.kind {
    case .action(let payload, let id, let origin):
      let members = payload.members
      line.raw(maximumCount: 160 + integers + members.count) { out in
        Self.writeStart(sequence, time, reactor, #","kind":"action","id":"#, id, members, to: &out)
        switch origin {
        case .stream, .external: return
        case .sent, .action, .effect: break
        }
        out.write(#","source":"sent""#)
        if let from { Self.write(from, to: &out) }
        out.write("}\n")
      }
      if case .external(let source) = origin {
        line.raw(#","source":"sent""#)
        line.raw(maximumCount: 64 + integers) { out in
          if let from { Self.write(from, to: &out) }
          out.write(#","external":"#)
        }
        JSONWriter.writeString(source, to: &line.bytes)
        line.raw("}\n")
        return
      }
      guard case .stream(let name) = origin else { return }
      line.raw(#","source":"stream","stream":"#)
      JSONWriter.writeString(name, to: &line.bytes)
      line.raw(maximumCount: 64 + integers) { out in
        if let from { Self.write(from, to: &out) }
        out.write("}\n")
      }
    case .mutation(let payload, let id, let origin, let change):
      let members = payload.members
      line.raw(maximumCount: 160 + integers + members.count) { out in
        Self.writeStart(
          sequence, time, reactor, #","kind":"mutation","id":"#, id, members, to: &out)
        out.write(#","cause":{"#)
        switch origin {
        case .action(let action):
          out.write(#""action":"#)
          out.write(action)
        case .effect(let effect, let action):
          out.write(#""action":"#)
          out.write(action)
          out.write(#","effect":"#)
          out.write(effect)
        case .stream, .sent, .external:
          out.write(#""stream":"#)
        }
      }
      switch origin {
      case .stream(let name): JSONWriter.writeString(name, to: &line.bytes)
      // The runtime never reports a sent mutation; written as `cause(_:)` describes it.
      case .sent: JSONWriter.writeString("send", to: &line.bytes)
      case .external(let source): JSONWriter.writeString(source, to: &line.bytes)
      case .action, .effect: break
      }
      let state: (key: StaticString, bytes: [UInt8], hash: TraceHash)
      switch change {
      case .snapshot(let hash): state = (#","snapshot":"#, snapshotBytes, hash)
      case .diff(let hash): state = (#","diff":"#, diffBytes, hash)
      case .description(let description, let hash):
        line.raw(maximumCount: 64 + integers) { out in
          if let from { Self.write(from, to: &out) }
          out.write(#"},"stateDescription":"#)
        }
        JSONWriter.writeString(description, to: &line.bytes)
        line.raw(maximumCount: 16 + ByteCursor.hashCount) { out in
          out.write(#","hash":"#)
          out.write(hash)
          out.write("}\n")
        }
        return
      }
      line.raw(maximumCount: 96 + integers + state.bytes.count) { out in
        if let from { Self.write(from, to: &out) }
        out.write("}")
        out.write(state.key)
        out.write(state.bytes)
        out.write(#","hash":"#)
        out.write(state.hash)
        out.write("}\n")
      }
    }
  }

  /// Writes `{"seq":…,"t":…,"reactor":…,"kind":…,"id":…` and the label and value: how the
  /// line of a reactor's action or mutation in a session starts.
  private static func writeStart(
    _ sequence: Int, _ time: Duration, _ reactor: Int, _ kindAndID: StaticString, _ id: Int,
    _ members: [UInt8], to out: inout ByteCursor
  ) {
    out.write(#"{"seq":"#)
    out.write(sequence)
    out.write(#","t":"#)
    out.write(Int(time.traceNanoseconds))
    out.write(#","reactor":"#)
    out.write(reactor)
    out.write(kindAndID)
    out.write(id)
    out.write(members)
  }

  /// Writes `,"from":{"action":…,"effect":…,"reactor":…}`, the members in the order
  /// `TraceEvent.ReactorOrigin.json` serializes them.
  private static func write(_ from: TraceEvent.ReactorOrigin, to out: inout ByteCursor) {
    out.write(#","from":{"#)
    if let action = from.action {
      out.write(#""action":"#)
      out.write(action)
      out.write(",")
    }
    if let effect = from.effect {
      out.write(#""effect":"#)
      out.write(effect)
      out.write(",")
    }
    out.write(#""reactor":"#)
    out.write(from.reactor)
    out.write("}")
  }
}
