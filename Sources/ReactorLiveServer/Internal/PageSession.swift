import FlyingSocks
import ReactorTracing

/// One live page's WebSocket, once the handshake is answered: the page says which stream it
/// watches (`{"watch":"ID"}`), the server sends the list of streams, then the chosen stream's
/// history and lines, a piece at a time (``LiveStreamStore/nextPiece(for:)``).
///
/// Each frame must leave within `writeDeadline`: a page that stops reading is shut down
/// then, and dropped with one log line (it holds one piece meanwhile). A frame from the page
/// over 64 KiB, or a close frame, ends the socket.
struct PageSession {
  let store: LiveStreamStore
  let table: ConnectionTable
  let number: Int
  let budget: Int
  let writeDeadline: Duration
  let log: @Sendable (String) -> Void

  /// Runs the socket until either side ends it.
  func run(_ connection: HTTPConnection) async {
    let outbox = PageOutbox(budget: budget)
    let page = await store.connect(outbox)
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        await self.send(from: outbox, page: page, over: connection)
      }
      group.addTask {
        var reading = connection
        await self.receive(&reading, page: page)
        outbox.close()
      }
      await group.next()
      outbox.close()
      table.shutDown(number)
      await group.next()
    }
    await store.disconnect(page)
  }

  private func send(from outbox: PageOutbox, page: Int, over connection: HTTPConnection) async {
    while let item = await outbox.next() {
      let text: String
      switch item {
      case .message(let message): text = message
      case .lines:
        guard let piece = await store.nextPiece(for: page) else { continue }
        text = piece
      }
      table.setDeadline(number, .now + writeDeadline)
      do {
        try await connection.write(WebSocketFrames.frame(WebSocketFrames.text, Array(text.utf8)))
      } catch {
        if table.wasLate(number) {
          log("page \(page) read nothing for \(writeDeadline); dropped it (it reconnects)")
        }
        return
      }
      table.setDeadline(number, nil)
    }
  }

  private func receive(_ connection: inout HTTPConnection, page: Int) async {
    while true {
      guard
        let (opcode, payload) = try? await WebSocketFrames.read(from: &connection, limit: 64 << 10)
      else { return }
      switch opcode {
      case WebSocketFrames.close: return
      case WebSocketFrames.text:
        guard let request = try? JSONValue(parsing: payload),
          let id = request["watch"]?.stringValue
        else { continue }
        await store.watch(id, page: page)
      default: continue
      }
    }
  }
}
