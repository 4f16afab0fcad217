import ReactorCore
import ReactorExamples
import ReactorLiveRecording
import ReactorTracing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// An app that streams its run live: the Counter example, tapped at a steady rate, recorded
// with a LiveTraceRecorder and streamed to `reactor-trace serve`. It links the runtime, the
// examples and the live recorder only (no server library, no Graphviz).
//
//   reactor-trace-live-example --port 7878 --token TOKEN [--host 127.0.0.1]
//     [--actions 200] [--rate 50] [--stream NAME] [--app NAME]
//
// At the end it prints one line of JSON: the stream, events observed, dropped, acknowledged
// and lost. Exit codes: 0 streamed, 2 bad arguments or options, 1 events were lost.

func fail(_ message: String) -> Never {
  let line = Array("reactor-trace-live-example: \(message)\n".utf8)
  _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  exit(2)
}

var values: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let name = arguments.popFirst() {
  guard name.hasPrefix("--"), let value = arguments.popFirst() else {
    fail("expected --name value pairs, got '\(name)'")
  }
  values[String(name.dropFirst(2))] = value
}
@MainActor func integer(_ name: String, default value: Int) -> Int {
  guard let text = values[name] else { return value }
  guard let number = Int(text), number >= 0 else { fail("--\(name) takes a number, not '\(text)'") }
  return number
}
guard let token = values["token"] else { fail("--token is required (serve prints it)") }
let port = integer("port", default: 7878)
let actions = integer("actions", default: 200)
let rate = max(1, integer("rate", default: 50))
var live = LiveOptions(host: values["host"] ?? "127.0.0.1", port: port, token: token)
if let stream = values["stream"] { live.streamID = stream }

let reactor = CounterReactor(limit: actions + 1)
let recorder: LiveTraceRecorder<CounterReactor>
do {
  recorder = try LiveTraceRecorder(
    recording: reactor, live: live,
    options: TraceOptions(metadata: ["app": values["app"] ?? "counter example"]))
} catch {
  fail("\(error)")
}

let clock = ContinuousClock()
var next = clock.now
let interval = Duration.seconds(1) / rate
for index in 0..<actions {
  reactor.send(index % 3 == 2 ? .decrease : .increase)
  next += interval
  try? await clock.sleep(until: next)
}
await recorder.waitUntilIdle()
await recorder.stop()
let status = recorder.status
print(
  #"{"stream":"\#(recorder.streamID)","observed":\#(recorder.observedEventCount),"#
    + #""dropped":\#(recorder.droppedEventCount),"acknowledged":\#(status.acknowledgedSequence),"#
    + #""lost":\#(status.lostEvents),"connections":\#(status.connections)}"#)
exit(status.lostEvents == 0 ? 0 : 1)
