import Foundation
public import ReactorScript
public import ReactorTracing

/// What `shrink` reads: a script as it is, or a recording turned into its script first.
public enum ShrinkInput {
  /// The script of the file at `path`: a reactor's or an app's script as it is; a trace's
  /// actions and scripted events at their times (``ReactorScript/init(trace:)``); a
  /// session's user actions at their times, each `to` the reactor it reached
  /// (``script(of:name:)``).
  /// - Throws: ``ShrinkError/unusableInput(path:reason:)``.
  public static func script(at path: String) throws(ShrinkError) -> ReactorScript {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .unusableInput(path: path, reason: "no such readable file")
    }
    let firstLine = data.prefix { $0 != UInt8(ascii: "\n") }
    let isRecording =
      if case .object(let object)? = try? JSONValue(
        parsing: String(decoding: firstLine, as: UTF8.self))
      {
        object["format"] != nil
      } else {
        false
      }
    do {
      guard isRecording else { return try ReactorScript(path: path) }
      let header = try SessionReader(path: path, verifyingStates: false).header
      if header.isTraceOfOneReactor { return try ReactorScript(trace: path) }
      return try script(of: SessionTrace(contentsOf: path), name: path)
    } catch let error as ShrinkError {
      throw error
    } catch let error as ScriptError {
      throw .unusableInput(path: path, reason: error.description)
    } catch {
      throw .unusableInput(path: path, reason: "\(error)")
    }
  }

  /// An app's script of a session: each action sent from outside the app (not by another
  /// reactor), at its time, `to` the address of the reactor it went to at that moment.
  ///
  /// A named reactor is addressed by its name; a reactor another one holds in its state by
  /// the holder's address and the path to it, in an array by a selector on the first field
  /// of its own state that never changes in the session and tells it from the others there
  /// (`list/cells[task.id=2]`: the same row whichever steps a shrunk script keeps), else by
  /// its position (`list/cells.0`).
  /// - Throws: ``ShrinkError/unusableInput(path:reason:)`` for a session that names no app,
  ///   an action recorded without its value, a reactor no address reaches, or a sent action
  ///   whose time is before the one sent before it.
  public static func script(of session: SessionTrace, name: String) throws(ShrinkError)
    -> ReactorScript
  {
    guard let app = session.header.metadata["app"] else {
      throw .unusableInput(
        path: name,
        reason: "the session's metadata names no 'app', so no session factory runs its script")
    }
    var metadata = session.header.metadata
    metadata["app"] = nil
    var script = ReactorScript(name: name, app: app, metadata: metadata, steps: [])
    var world = SessionStates()
    world.stableFields = SessionStates.stableFields(in: session)
    for event in session.events {
      world.apply(event)
      guard case .reactor(let reactor, .action(let action)) = event.kind,
        action.source == .sent, action.from == nil
      else { continue }
      guard let value = action.value else {
        throw .unusableInput(
          path: name,
          reason: "the action \(action.label) (event \(event.sequence)) was recorded without "
            + "its value")
      }
      guard let address = world.address(of: reactor) else {
        throw .unusableInput(
          path: name,
          reason: "no address reaches reactor #\(reactor), sent \(action.label) at event "
            + "\(event.sequence): it has no name and no named reactor's state holds it")
      }
      if let last = script.steps.last, event.time < last.time {
        throw .unusableInput(
          path: name,
          reason: "the action \(action.label) (event \(event.sequence)) was sent at "
            + "\(event.time), before the action sent before it "
            + "(\(last.time)): a script's steps cannot go back in time")
      }
      script.steps.append(
        ReactorScript.Step(
          time: event.time, input: .action(value), line: event.sequence + 1, target: address))
    }
    return script
  }
}
