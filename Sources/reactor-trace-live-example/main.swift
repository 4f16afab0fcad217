import Clocks
import ConcurrencyExtras
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
// examples and the live recorder only (no server library, no Graphviz). Its usage, below, is
// what `--help` prints.

let usage = """
  An app that streams its run live: the Counter example, tapped at a steady rate, recorded \
  with a LiveTraceRecorder and streamed to reactor-trace serve.

    reactor-trace-live-example --port 7878 --token TOKEN [--host 127.0.0.1]
      [--actions 200] [--rate 50] [--stream NAME] [--app NAME] [--pattern mixed|decrease]
      [--state-bytes N] [--queue-mib 2] [--control SECONDS | --idle SECONDS]
    reactor-trace-live-example --file PATH [...]   (the same run, to a FileTraceRecorder:
                                                    the benchmark's reference)
    reactor-trace-live-example --recorder none [...]   (the same run, not recorded)
    [--overflow drop|wait]   (what a full queue does: drop events, the default, or wait)
    reactor-trace-live-example --session taskapp --port 7878 --token TOKEN [--pause-ms 0]
      [--control SECONDS | --idle SECONDS] [--stop-file PATH]
    reactor-trace-live-example --session taskapp --file PATH
    [--hold-file PATH]   (waits until PATH exists before its last action, or after the
                          session's last tap: the browser tests hold the app there until the
                          page has shown its events)
      (the task app's sample session, every reactor of it, streamed live with a
      LiveSessionRecorder or written by a SessionRecorder to PATH: on a test clock, so both
      give the same lines as Traces/taskapp.session.jsonl; --pause-ms waits that long for
      real between two groups of taps, to watch it arrive)
    reactor-trace-live-example --help   (this text)

  mixed sends increase, increase, decrease... (an increase runs a 500 ms effect); decrease \
  only decreases (no effect). With --state-bytes N (N > 0) it runs a counter whose state \
  also holds about N bytes of text, each action one mutation (the latency row with a large \
  state). --queue-mib sets the queue in front of the ring (LiveOptions.queueBudget). At the \
  end it prints one line of JSON: the stream, events observed, dropped, acknowledged and \
  lost. After its taps, --control SECONDS takes commands from the page and reactor-trace \
  send (LiveOptions(control: .accept)) for SECONDS, then ends its recording; --idle SECONDS \
  streams as long without accepting any (with --actions 0 it sends no taps of its own); \
  --stop-file PATH ends that wait as soon as PATH exists (the tests end it so). With --file \
  or --recorder none, the line also gives the taps' wall seconds and, on Linux, the CPU \
  seconds of the app's threads and of the recorder's (appCPU, recorderCPU): what recording \
  costs the app, as Benchmarks/live/app_cost.py measures it. \
  Exit codes: 0 streamed (or the help printed), 2 bad arguments or options, 1 events \
  were lost.
  """

func fail(_ message: String) -> Never {
  let line = Array("reactor-trace-live-example: \(message)\n".utf8)
  _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  exit(2)
}

var values: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--help") || arguments.contains("-h") {
  print(usage)
  exit(0)
}
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
let file = values["file"]
/// Whether the run is not recorded at all (`--recorder none`): the reference for what
/// recording costs.
let untraced: Bool
switch values["recorder"] {
case nil, "file", "live": untraced = false
case "none": untraced = true
case let other?: fail("--recorder is none (or left out), not '\(other)'")
}
if untraced, file != nil { fail("give --file or --recorder none, not both") }
guard let token = values["token"] ?? (file != nil || untraced ? "" : nil) else {
  fail("--token is required (serve prints it)")
}
let port = integer("port", default: 7878)
let onlyDecrease: Bool
switch values["pattern"] ?? "mixed" {
case "mixed": onlyDecrease = false
case "decrease": onlyDecrease = true
case let other: fail("--pattern is mixed or decrease, not '\(other)'")
}
let actions = integer("actions", default: 200)
let rate = max(1, integer("rate", default: 50))
var live = LiveOptions(host: values["host"] ?? "127.0.0.1", port: port, token: token)
if let stream = values["stream"] { live.streamID = stream }
if values["queue-mib"] != nil { live.queueBudget = integer("queue-mib", default: 2) << 20 }
if values["control"] != nil, values["idle"] != nil { fail("give --control or --idle, not both") }
if values["control"] != nil { live.control = .accept }
/// How long the app goes on after its taps: taking commands (`--control`) or not (`--idle`).
let lingering = Duration.seconds(integer("control", default: integer("idle", default: 0)))

let stateBytes = integer("state-bytes", default: 0)
/// What the recorder does when its queue is full: drop (an app's choice) or wait (back-pressure:
/// every event written, as callgrind's slowed runs of `Benchmarks/live/app_cost.py` need).
let overflow: TraceOverflowPolicy
switch values["overflow"] ?? "drop" {
case "drop": overflow = .drop
case "wait": overflow = .wait
case let other: fail("--overflow is drop or wait, not '\(other)'")
}
let options = TraceOptions(
  metadata: ["app": values["app"] ?? "counter example"], overflow: overflow)

/// Goes on for `lingering` after the taps (taking commands with `--control`), or until the
/// path of `--stop-file` exists.
@MainActor func linger() async {
  guard lingering > .zero else { return }
  let clock = ContinuousClock()
  let deadline = clock.now + lingering
  while clock.now < deadline {
    if let path = values["stop-file"], access(path, F_OK) == 0 { return }
    try? await clock.sleep(for: .milliseconds(10))
  }
}

/// Waits until the path of `--hold-file` exists, when it is given (at most 120 s): the browser
/// tests hold the app there until the page has shown what it streamed, so that "shown while the
/// app still runs" does not depend on how loaded the machine is.
@MainActor func holdIfAsked() async {
  guard let path = values["hold-file"] else { return }
  let clock = ContinuousClock()
  let deadline = clock.now + .seconds(120)
  while access(path, F_OK) != 0, clock.now < deadline {
    try? await clock.sleep(for: .milliseconds(10))
  }
}

/// Taps `reactor` `actions` times at `rate` per second, recorded live (or to `file`), and
/// prints the report line.
@MainActor func run<R: Reactor>(_ reactor: R, action: (Int) -> R.Action) async -> Never {
  let recorder: LiveTraceRecorder<R>?
  let fileRecorder: FileTraceRecorder<R>?
  do {
    if untraced {
      recorder = nil
      fileRecorder = nil
    } else if let file {
      fileRecorder = try FileTraceRecorder(recording: reactor, to: file, options: options)
      recorder = nil
    } else {
      recorder = try LiveTraceRecorder(recording: reactor, live: live, options: options)
      fileRecorder = nil
    }
  } catch {
    fail("\(error)")
  }

  let clock = ContinuousClock()
  let start = clock.now
  let cpuAtStart = ThreadCPU.now()
  var next = clock.now
  let interval = Duration.seconds(1) / rate
  for index in 0..<actions {
    if index == actions - 1 { await holdIfAsked() }
    reactor.send(action(index))
    next += interval
    try? await clock.sleep(until: next)
  }
  /// The run's wall seconds and CPU seconds by thread, as JSON members.
  func costs() -> String {
    let wall = start.duration(to: clock.now)
    var members =
      #""seconds":\#(Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18)"#
    if let begin = cpuAtStart, let end = ThreadCPU.now() {
      members +=
        #","appCPU":\#(end.app - begin.app),"recorderCPU":\#(end.recorder - begin.recorder)"#
    }
    return members
  }
  if untraced {
    print(#"{"recorder":"none","actions":\#(actions),\#(costs())}"#)
    exit(0)
  }
  if let fileRecorder {
    await fileRecorder.waitUntilIdle()
    // Before stopping: the writer's thread ends with the recording.
    let measured = costs()
    do { try await fileRecorder.stop() } catch { fail("\(error)") }
    print(
      #"{"file":"\#(fileRecorder.path)","observed":\#(fileRecorder.observedEventCount),\#(measured)}"#
    )
    exit(0)
  }
  guard let recorder else { fail("no recorder") }
  await linger()
  await recorder.waitUntilIdle()
  await recorder.stop()
  let status = recorder.status
  print(
    #"{"stream":"\#(recorder.streamID)","observed":\#(recorder.observedEventCount),"#
      + #""dropped":\#(recorder.droppedEventCount),"acknowledged":\#(status.acknowledgedSequence),"#
      + #""lost":\#(status.lostEvents),"connections":\#(status.connections)}"#)
  exit(status.lostEvents == 0 ? 0 : 1)
}

/// Records the task app's sample session whole, live or to `file`, and prints the report line.
///
/// As its test records it (``TaskApp/tapThroughSample(pause:)``): on a test clock, one task at
/// a time on the main actor, so that each run gives the same lines.
@MainActor func runTaskAppSession() async -> Never {
  let pause = Duration.milliseconds(integer("pause-ms", default: 0))
  let clock = TestClock()
  let options = TraceOptions(metadata: ["app": "TaskApp"], clock: clock)
  let appsReactors: @MainActor (AnyObject) -> Bool = {
    $0 is TaskAppListReactor || $0 is TaskCellReactor || $0 is TaskEditReactor
  }
  let app = TaskApp(clock: clock)
  let fileRecorder: SessionRecorder?
  let recorder: LiveSessionRecorder?
  do {
    if let file {
      fileRecorder = try SessionRecorder.recordingEveryReactor(
        .file(file), options: options, including: appsReactors)
      recorder = nil
    } else {
      recorder = try LiveSessionRecorder.recordingEveryReactor(
        live: live, options: options, including: appsReactors)
      fileRecorder = nil
    }
  } catch {
    fail("\(error)")
  }
  await withMainSerialExecutor { @MainActor in
    fileRecorder?.record(app.list, name: "list")
    fileRecorder?.record(app.edit, name: "edit")
    recorder?.record(app.list, name: "list")
    recorder?.record(app.edit, name: "edit")
    app.bindViews()
    await app.tapThroughSample {
      await clock.advance(by: .milliseconds(100))
      if pause > .zero { try? await ContinuousClock().sleep(for: pause) }
    }
    await holdIfAsked()
    await fileRecorder?.waitUntilIdle()
    await recorder?.waitUntilIdle()
  }
  if let fileRecorder, let file {
    do { try await fileRecorder.close() } catch { fail("\(error)") }
    print(#"{"file":"\#(file)"}"#)
    exit(0)
  }
  guard let recorder else { fail("no recorder") }
  await linger()
  await recorder.stop()
  let status = recorder.status
  print(
    #"{"stream":"\#(recorder.streamID)","observed":\#(recorder.observedEventCount),"#
      + #""dropped":\#(recorder.droppedEventCount),"acknowledged":\#(status.acknowledgedSequence),"#
      + #""lost":\#(status.lostEvents),"connections":\#(status.connections)}"#)
  exit(status.lostEvents == 0 ? 0 : 1)
}

if let session = values["session"] {
  guard session == "taskapp" else { fail("--session takes taskapp, not '\(session)'") }
  await runTaskAppSession()
}
if stateBytes > 0 {
  await run(LargeStateCounterReactor(stateBytes: stateBytes)) { index in
    onlyDecrease || index % 3 == 2 ? .decrease : .increase
  }
} else {
  await run(CounterReactor(limit: actions + 1)) { index in
    onlyDecrease || index % 3 == 2 ? .decrease : .increase
  }
}
