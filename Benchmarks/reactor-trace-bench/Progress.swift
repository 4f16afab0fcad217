import Foundation

/// Progress lines on standard error, so that standard output holds only the tables.
enum Progress {
  /// Writes `line` and a newline to standard error.
  static func say(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}
