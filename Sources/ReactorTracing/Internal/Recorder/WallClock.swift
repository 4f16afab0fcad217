import Foundation

/// The wall-clock time, for the origin a header records.
enum WallClock {
  /// Now, in ISO 8601 UTC with milliseconds: `2026-11-22T09:30:00.123Z`.
  static func nowISO8601() -> String {
    Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(Date())
  }
}
