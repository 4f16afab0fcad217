import ReactorLiveRecording
import ReactorTracing

/// Every stream the server keeps, and the pages watching them.
///
/// Streams are kept on disk, not in memory: a page that joins late gets a stream's history
/// read back from its file, in pieces, then the lines as they arrive. The store holds per
/// stream only its file and counters, and per page a bounded ``PageOutbox``.
actor LiveStreamStore {
  /// How a batch was taken.
  enum Receipt {
    /// Stored (or held already) through this sequence number.
    case acknowledged(Int)
    /// The batch starts after the stream's end, which is this sequence number.
    case hole(Int)
    /// Refused, with the reason.
    case refused(String)
  }

  /// The most bytes of history one message to a page carries.
  private static var historyPiece: Int { 256 << 10 }

  private let directory: String
  private let pageBudget: Int
  private let log: @Sendable (String) -> Void
  private var streams: [String: StoredStream] = [:]
  /// Each page's outbox and the stream it watches, by connection number.
  private var pages: [Int: (outbox: PageOutbox, watching: String?)] = [:]
  private var nextPage = 1

  init(
    directory: String, pageBudget: Int, log: @escaping @Sendable (String) -> Void
  ) {
    self.directory = directory
    self.pageBudget = pageBudget
    self.log = log
  }

  /// Opens the streams an earlier run kept in the directory.
  func resume(_ files: [(id: String, path: String)]) throws(LiveServerError) {
    for file in files {
      do {
        streams[file.id] = try StoredStream(resuming: file.path, id: file.id)
      } catch {
        throw .unreadableStream(path: file.path, reason: error.description)
      }
    }
  }

  /// The number of streams kept.
  var streamCount: Int { streams.count }

  /// The trace file the server keeps of stream `id`, or `nil` when it holds no such stream.
  func tracePath(of id: String) -> String? { streams[id]?.path }

  /// Takes a batch an app posted: a header line, then event lines from `from`.
  func receive(stream id: String, from: Int, body: [UInt8]) -> Receipt {
    var lines: [ArraySlice<UInt8>] = []
    var start = body.startIndex
    while let newline = body[start...].firstIndex(of: UInt8(ascii: "\n")) {
      lines.append(body[start...newline])
      start = newline + 1
    }
    guard start == body.endIndex else { return .refused("the batch's last line is unfinished") }
    guard let headerLine = lines.first, LiveProtocol.sequence(ofLine: headerLine) == nil else {
      return .refused("a batch starts with the trace's header line")
    }
    let stream: StoredStream
    if let existing = streams[id] {
      guard existing.hasHeader(headerLine) else {
        return .refused("the header differs from the one stream \(id) started with")
      }
      stream = existing
    } else {
      guard from == 1 else { return .hole(0) }
      do {
        stream = try StoredStream(id: id, directory: directory, headerLine: Array(headerLine))
      } catch {
        return .refused(error.description)
      }
      streams[id] = stream
      log("stream \(id): \(stream.reactor)\(stream.app.map { " from \($0)" } ?? "") started")
      broadcastList()
    }
    let before = stream.hasEnded
    do {
      let outcome = try stream.receive(Array(lines.dropFirst()), from: from)
      if outcome.isHole { return .hole(stream.nextSequence - 1) }
      if !outcome.stored.isEmpty {
        deliver(outcome.stored, shown: .object(JSONObject(outcome.shown)), of: id, isReset: false)
      }
    } catch {
      return .refused(error.description)
    }
    if stream.hasEnded && !before {
      log("stream \(id): ended after \(stream.nextSequence - 1) events")
      broadcastList()
    }
    return .acknowledged(stream.nextSequence - 1)
  }

  // MARK: Pages

  /// Registers a page's outbox and sends it the list of streams.
  func connect(_ outbox: PageOutbox) -> Int {
    let number = nextPage
    nextPage += 1
    pages[number] = (outbox, nil)
    outbox.send(listMessage())
    return number
  }

  /// Forgets a page whose socket ended.
  func disconnect(_ page: Int) {
    pages[page]?.outbox.close()
    pages[page] = nil
  }

  /// Makes a page watch stream `id`: its history from the file, then what arrives.
  func watch(_ id: String, page: Int) {
    guard let entry = pages[page] else { return }
    guard let stream = streams[id] else {
      entry.outbox.send(Self.control(["type": "notice", "text": .string("no stream \(id)")]))
      return
    }
    pages[page] = (entry.outbox, id)
    var offset = 0
    var isFirst = true
    // Everything in the file now; lines stored later reach the page through `deliver`, after
    // these, since both run on this actor.
    while offset < stream.length || isFirst {
      var piece = stream.contents(from: offset, count: Self.historyPiece)
      if let lastNewline = piece.lastIndex(of: UInt8(ascii: "\n")) {
        piece.removeSubrange((lastNewline + 1)...)
      } else if offset < stream.length {
        // A single line longer than a piece: read it whole.
        piece = stream.contents(from: offset, count: stream.length - offset)
      }
      offset += piece.count
      let shown = ShownLabels.of(piece)
      if !send(
        piece, shown: shown, of: id, isReset: isFirst, isHistory: true, to: entry.outbox,
        page: page)
      {
        return
      }
      isFirst = false
      if piece.isEmpty { break }
    }
  }

  private func deliver(_ lines: [UInt8], shown: JSONValue, of id: String, isReset: Bool) {
    for (number, entry) in pages where entry.watching == id {
      _ = send(
        lines, shown: shown, of: id, isReset: isReset, isHistory: false, to: entry.outbox,
        page: number)
    }
  }

  /// Sends lines to a page: `reset` starts the stream over, `history` marks lines read back
  /// from the file rather than just arrived, `shown` the labels the page shows for them
  /// (``ShownLabels``).
  private func send(
    _ lines: [UInt8], shown: JSONValue, of id: String, isReset: Bool, isHistory: Bool,
    to outbox: PageOutbox, page: Int
  ) -> Bool {
    let head = Self.control([
      "type": "lines", "stream": .string(id), "reset": .bool(isReset),
      "history": .bool(isHistory), "shown": shown,
    ])
    if outbox.send(head + "\n" + String(decoding: lines, as: UTF8.self)) { return true }
    log("page \(page) fell more than \(pageBudget) bytes behind; closed its socket (it reconnects)")
    pages[page] = nil
    return false
  }

  private func broadcastList() {
    let message = listMessage()
    for entry in pages.values { entry.outbox.send(message) }
  }

  private func listMessage() -> String {
    let list = streams.values.sorted { $0.id < $1.id }.map { stream -> JSONValue in
      var members: [(String, JSONValue)] = [
        ("id", .string(stream.id)), ("reactor", .string(stream.reactor)),
        ("events", .int(Int64(stream.nextSequence - 1))), ("ended", .bool(stream.hasEnded)),
        ("file", .string(stream.path)),
      ]
      if let app = stream.app { members.append(("app", .string(app))) }
      return .object(JSONObject(members))
    }
    return Self.control(["type": "streams", "streams": .array(list)])
  }

  private static func control(_ members: [String: JSONValue]) -> String {
    JSONValue.object(JSONObject(members.map { ($0.key, $0.value) })).serializedString
  }
}
