import FlyingFox
import ReactorTracing

/// One live page's socket: the page says which stream it watches (`{"watch":"ID"}`), the
/// server sends the list of streams, then the chosen stream's history and lines.
struct PageSocket: WSMessageHandler {
  let store: LiveStreamStore
  /// The most bytes waiting to be sent to one page.
  let budget: Int

  func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
    let outbox = PageOutbox(budget: budget)
    let page = await store.connect(outbox)
    Task {
      for await message in client {
        guard case .text(let text) = message,
          let request = try? JSONValue(parsing: text),
          let id = request["watch"]?.stringValue
        else { continue }
        await store.watch(id, page: page)
      }
      await store.disconnect(page)
    }
    return AsyncStream(unfolding: { await outbox.next().map { .text($0) } })
  }
}
