import ArgumentParser
import ReactorTracing

extension StatePath {
  /// The paths an option was given, each read as ``StatePath`` reads it: the one grammar of
  /// `--key` in every command.
  ///
  /// - Parameters:
  ///   - texts: The option's values.
  ///   - option: The option's name, for the message: `--key`.
  /// - Returns: The paths, in order.
  /// - Throws: A `ValidationError` naming the option and the first malformed path.
  static func arguments(_ texts: [String], of option: String) throws -> [StatePath] {
    try texts.map { text in
      do throws(StatePathError) {
        return try StatePath(parsing: text)
      } catch {
        throw ValidationError("\(option) \(error.description).")
      }
    }
  }
}
