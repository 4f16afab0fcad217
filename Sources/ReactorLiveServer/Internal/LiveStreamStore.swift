import ReactorLiveRecording
import ReactorTracing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Every stream the server keeps, and the pages watching them.
///
/// Streams are kept on disk, not in memory: a page gets a stream's lines read back from its
/// file, a piece at a time, when its socket has sent the previous piece (``PageOutbox``), so
/// a page that reads slowly is sent at its pace and one that stops reading holds one piece.
/// The store holds per stream only its counters, and per page its outbox and place in the
/// file. Stream names are compared without regard to case (on a case-insensitive disk `abc`
/// and `ABC` would share one file): a second name differing only in case is refused.
actor LiveStreamStore {
  /// How a batch was taken.
  enum Receipt {
    /// Stored (or held already) through this sequence number.
    case acknowledged(Int)
    /// The batch starts after the stream's end, which is this sequence number.
    case hole(Int)
    /// Refused, with the reason.
    case refused(String)
    /// Valid, but not stored (the disk refused it): nothing of it is acknowledged.
    case unstored(String)
  }

  /// The most bytes of lines one message to a page carries (a longer line goes alone).
  static var piece: Int { 256 << 10 }

  private struct Page {
    var outbox: PageOutbox
    /// The stream watched, by its key.
    var watching: String?
    /// Where in its file the next piece starts.
    var cursor = 0
    /// The file's length when the page asked to watch: lines before it are history.
    var historyEnd = 0
    /// Whether the next piece starts the stream over on the page.
    var isReset = false
  }

  private let directory: String
  private let pageBudget: Int
  private let log: @Sendable (String) -> Void
  /// The streams by their lowercased name.
  private var streams: [String: StoredStream] = [:]
  /// Each stream's last batch: where it lies in the file and its labels as a page shows them,
  /// computed when it was taken, so that a page sent just that batch does not parse it again.
  private var lastBatches: [String: (range: Range<Int>, shown: JSONValue)] = [:]
  private var pages: [Int: Page] = [:]
  private var nextPage = 1

  init(
    directory: String, pageBudget: Int, log: @escaping @Sendable (String) -> Void
  ) {
    self.directory = directory
    self.pageBudget = pageBudget
    self.log = log
  }

  /// Opens the streams an earlier run kept in the directory.
  ///
  /// A file that holds no stream (empty,
  /// or without a header line) is passed over with a log line, and an empty one removed; a
  /// name differing only in case from one opened already is passed over too.
  func resume(_ files: [(id: String, path: String)]) {
    for file in files {
      guard streams[file.id.lowercased()] == nil else {
        log("passed over \(file.path): its name differs only in case from a kept stream's")
        continue
      }
      do {
        streams[file.id.lowercased()] = try StoredStream(resuming: file.path, id: file.id)
      } catch {
        if Self.isEmptyFile(file.path) {
          _ = unlink(file.path)
          log("removed the empty file \(file.path): it held no stream")
        } else {
          log("passed over \(file.path): \(error.description)")
        }
      }
    }
  }

  private static func isEmptyFile(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
      && status.st_size == 0
  }

  /// The number of streams kept.
  var streamCount: Int { streams.count }

  /// The trace file the server keeps of stream `id`, or `nil` when it holds no such stream.
  func tracePath(of id: String) -> String? { streams[id.lowercased()]?.path }

  /// Whether stream `id` has ended, or `nil` when the server holds no such stream.
  func hasEnded(_ id: String) -> Bool? { streams[id.lowercased()]?.hasEnded }

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
    let key = id.lowercased()
    let stream: StoredStream
    let isNew: Bool
    if let existing = streams[key] {
      guard existing.id == id else {
        return .refused("the name differs only in case from the kept stream \(existing.id)")
      }
      guard existing.hasHeader(headerLine) else {
        return .refused("the header differs from the one stream \(id) started with")
      }
      stream = existing
      isNew = false
    } else {
      guard from == 1 else { return .hole(0) }
      do {
        stream = try StoredStream(id: id, directory: directory, headerLine: Array(headerLine))
      } catch {
        return .refused(error.description)
      }
      isNew = true
    }
    let before = stream.hasEnded
    do {
      let outcome = try stream.receive(Array(lines.dropFirst()), from: from)
      if outcome.isHole { return .hole(stream.nextSequence - 1) }
      if !outcome.stored.isEmpty {
        lastBatches[key] = (
          (stream.length - outcome.stored.count)..<stream.length,
          .object(JSONObject(outcome.shown))
        )
      }
    } catch {
      return error.isStorage ? .unstored(error.description) : .refused(error.description)
    }
    if isNew {
      streams[key] = stream
      log("stream \(id): \(stream.reactor)\(stream.app.map { " from \($0)" } ?? "") started")
      broadcastList()
    }
    for (number, page) in pages where page.watching == key {
      pages[number]?.outbox.notify()
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
    pages[number] = Page(outbox: outbox)
    send(listMessage(), to: number)
    return number
  }

  /// Forgets a page whose socket ended.
  func disconnect(_ page: Int) {
    pages[page]?.outbox.close()
    pages[page] = nil
  }

  /// Makes a page watch stream `id`: its history from the file, then what arrives.
  func watch(_ id: String, page: Int) {
    guard var entry = pages[page] else { return }
    let key = id.lowercased()
    guard let stream = streams[key] else {
      send(Self.control(["type": "notice", "text": .string("no stream \(id)")]), to: page)
      return
    }
    entry.watching = key
    entry.cursor = 0
    entry.historyEnd = stream.length
    entry.isReset = true
    pages[page] = entry
    entry.outbox.notify()
  }

  /// The next piece of the stream page `page` watches, read from its file.
  ///
  /// `nil` when the page has every line. Marks the outbox again when more remain.
  func nextPiece(for page: Int) -> String? {
    guard var entry = pages[page], let key = entry.watching, let stream = streams[key],
      entry.cursor < stream.length
    else { return nil }
    var piece = stream.contents(from: entry.cursor, count: Self.piece)
    if let lastNewline = piece.lastIndex(of: UInt8(ascii: "\n")) {
      piece.removeSubrange((lastNewline + 1)...)
    } else {
      // A single line longer than a piece: read it whole.
      piece = stream.contents(from: entry.cursor, count: stream.length - entry.cursor)
    }
    guard !piece.isEmpty else { return nil }
    let isHistory = entry.cursor < entry.historyEnd
    let range = entry.cursor..<(entry.cursor + piece.count)
    let shown =
      lastBatches[key].flatMap { $0.range == range ? $0.shown : nil } ?? ShownLabels.of(piece)
    let head = Self.control([
      "type": "lines", "stream": .string(stream.id), "reset": .bool(entry.isReset),
      "history": .bool(isHistory), "shown": shown,
    ])
    entry.cursor += piece.count
    entry.isReset = false
    pages[page] = entry
    if entry.cursor < stream.length { entry.outbox.notify() }
    return head + "\n" + String(decoding: piece, as: UTF8.self)
  }

  private func send(_ message: String, to page: Int) {
    guard let entry = pages[page] else { return }
    if !entry.outbox.send(message) {
      log(
        "page \(page) let more than \(pageBudget) bytes of messages wait; closed its socket "
          + "(it reconnects)")
      pages[page] = nil
    }
  }

  private func broadcastList() {
    let message = listMessage()
    for number in pages.keys { send(message, to: number) }
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
