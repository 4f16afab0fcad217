/// The wire protocol between a ``LiveTraceRecorder`` and `reactor-trace serve`: plain
/// HTTP/1.1 requests whose bodies are trace lines, answered with the last sequence number
/// the server holds.
///
/// An app sends `POST /live/v1/streams/ID?from=N` with `Authorization: Bearer TOKEN` and a
/// body of JSON Lines: the trace's header line, then consecutive event lines starting at
/// sequence number `N`. The server stores the events it lacks (skipping those it holds
/// already, so a batch sent again after a lost acknowledgement is stored once), writes them
/// to the stream's trace file, and answers `200` with `{"acked":M}`: every event up to `M`
/// is on its disk. `409` with the same body says the batch starts after a hole: the app
/// resends from `M + 1`. `401` is a wrong token; `400` a malformed batch.
///
/// Control (issue 43): an app that accepts commands (``LiveOptions/control``) adds
/// `Reactor-Control: accept` to each batch, and posts a batch of no events (the header line
/// alone) every ``LiveOptions/commandPollInterval`` while it has nothing else to send. The
/// answer to such a batch may carry orders, `{"acked":M,"orders":[…]}`, each
/// `{"id":N,"from":"page"|"client","action":VALUE}` with `"to":"ADDRESS"` or `"reactor":ID`
/// in a session. The app performs them on its reactors' actor, then posts the outcomes to
/// ``resultsPath(_:)`` on the same connection: `[{"id":N},{"id":N,"error":"…"}]`. The page
/// and `reactor-trace send` post a ``LiveCommand`` to ``commandPath``, answered once the app
/// reported its outcome.
///
/// So that an order does not wait for the app's next batch, such an app also asks for its
/// orders on a second connection of its own (the app connects out, as for its batches: no
/// port on the device): `GET /live/v1/orders/ID?wait=MS` (``ordersPath(_:)``) with the same
/// token, which the server answers `{"orders":[…]}` as soon as an order for the stream is
/// queued, or with no orders once `MS` milliseconds passed (at most ``longestOrdersWait``);
/// `404` before the stream's first batch, `410` once it ended. Orders an answer to a batch
/// carries are the same orders: each goes out once, in whichever answer comes first.
public enum LiveProtocol {
  /// Where an app asks for the orders of stream `id`, the server holding the answer until
  /// one is queued.
  public static func ordersPath(_ id: String) -> String { ordersPathPrefix + id }
  /// The path every orders URL starts with.
  public static var ordersPathPrefix: String { "/live/v1/orders/" }
  /// The longest the server holds an orders request with no order for it.
  public static var longestOrdersWait: Duration { .seconds(10) }

  /// The header with which an app's batches say that it accepts commands.
  public static var controlHeader: String { "Reactor-Control" }
  /// Where the page and `reactor-trace send` post a ``LiveCommand``.
  public static var commandPath: String { "/live/v1/command" }
  /// Where an app posts the outcomes of the orders it performed.
  public static func resultsPath(_ id: String) -> String { resultsPathPrefix + id }
  /// The path every results URL starts with.
  public static var resultsPathPrefix: String { "/live/v1/results/" }

  /// Where an app posts the lines of stream `id`.
  public static func streamPath(_ id: String) -> String { streamPathPrefix + id }
  /// The path every stream's URL starts with.
  public static var streamPathPrefix: String { "/live/v1/streams/" }
  /// The WebSocket the live page watches streams through.
  public static var socketPath: String { "/live/v1/socket" }

  /// Whether `id` can name a stream: 1 to 64 ASCII letters, digits, `-` and `_`, so that it
  /// is also a safe file name and needs no escaping in a URL.
  public static func isValidStreamID(_ id: some StringProtocol) -> Bool {
    (1...64).contains(id.utf8.count)
      && id.utf8.allSatisfy { byte in
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
          || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
          || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
          || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
      }
  }

  /// The body of an acknowledgement: `{"acked":M}`.
  public static func acknowledgement(_ sequence: Int) -> String { "{\"acked\":\(sequence)}" }

  /// The sequence number an acknowledgement's body carries, or `nil` when it carries none.
  public static func acknowledgedSequence(in body: some Collection<UInt8>) -> Int? {
    let key = Array("\"acked\":".utf8)
    let bytes = Array(body)
    guard let range = bytes.firstRange(of: key) else { return nil }
    var value = 0
    var index = range.upperBound
    var digits = 0
    while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
      guard digits < 18 else { return nil }
      value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
      digits += 1
      index += 1
    }
    return digits > 0 ? value : nil
  }

  /// The sequence number at the start of an event line, `{"seq":N,…`, as every recorder
  /// writes it; `nil` for a line that does not start so (a header).
  public static func sequence(ofLine line: some Collection<UInt8>) -> Int? {
    let prefix = Array("{\"seq\":".utf8)
    guard line.starts(with: prefix) else { return nil }
    var value = 0
    var digits = 0
    for byte in line.dropFirst(prefix.count) {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
        return digits > 0 && byte == UInt8(ascii: ",") ? value : nil
      }
      guard digits < 18 else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
      digits += 1
    }
    return nil
  }
}
