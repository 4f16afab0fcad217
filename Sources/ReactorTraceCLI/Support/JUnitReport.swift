import Foundation

/// A JUnit XML report, the format CI systems (Jenkins, GitLab, GitHub Actions' reporters)
/// display: one `<testsuite>` in a `<testsuites>` root, one `<testcase>` per case, a failure
/// or an error in it when it did not pass.
///
/// It follows the JUnit XML schema those tools read (Apache Ant's, as `JUnit.xsd` of Windy
/// Road publishes it): `name` and `tests` on the suite, `name`, `classname` and `time` on a
/// case, a `type` on each failure and error; counts that add up; text that is valid XML 1.0
/// (characters XML cannot hold written as `\uXXXX`; a case's name reads back as its input's
/// path whatever characters that holds, but those).
struct JUnitReport: Sendable {
  /// One test case.
  struct Case: Sendable {
    /// How a case ended.
    enum Outcome: Sendable {
      /// It passed.
      case passed
      /// It failed (a divergence): the first line, the whole text.
      case failure(message: String, details: String)
      /// It could not run (unusable input, a crash): the kind, the first line, the whole text.
      case error(type: String, message: String, details: String)
    }

    /// The case's name: the input's path.
    var name: String
    /// Its class name: what ran it.
    var className: String
    /// How long it took, in seconds.
    var seconds: Double
    /// How it ended.
    var outcome: Outcome
  }

  /// The suite's name.
  var name: String
  /// When the run started.
  var timestamp: Date
  /// The machine it ran on.
  var hostname: String
  /// The cases, in order.
  var cases: [Case]
  /// How long the whole run took, in seconds.
  var seconds: Double

  /// The report's bytes: UTF-8 XML with its declaration.
  var bytes: [UInt8] {
    var failures = 0
    var errors = 0
    for testCase in cases {
      switch testCase.outcome {
      case .passed: break
      case .failure: failures += 1
      case .error: errors += 1
      }
    }
    let counts =
      "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" "
      + "time=\"\(Self.seconds(seconds))\""
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    xml += "<testsuites name=\"\(Self.escaped(name))\" \(counts)>\n"
    xml += "  <testsuite name=\"\(Self.escaped(name))\" \(counts) skipped=\"0\" "
    xml += "timestamp=\"\(Self.timestamp(timestamp))\" hostname=\"\(Self.escaped(hostname))\" "
    xml += "id=\"0\" package=\"\(Self.escaped(name))\">\n"
    xml += "    <properties/>\n"
    for testCase in cases {
      xml += "    <testcase name=\"\(Self.escaped(testCase.name))\" "
      xml += "classname=\"\(Self.escaped(testCase.className))\" "
      xml += "time=\"\(Self.seconds(testCase.seconds))\""
      switch testCase.outcome {
      case .passed:
        xml += "/>\n"
      case .failure(let message, let details):
        xml += ">\n      <failure message=\"\(Self.escaped(message))\" type=\"divergence\">"
        xml += Self.escaped(details, inAttribute: false) + "</failure>\n    </testcase>\n"
      case .error(let type, let message, let details):
        xml +=
          ">\n      <error message=\"\(Self.escaped(message))\" type=\"\(Self.escaped(type))\">"
        xml += Self.escaped(details, inAttribute: false) + "</error>\n    </testcase>\n"
      }
    }
    xml += "    <system-out/>\n    <system-err/>\n  </testsuite>\n</testsuites>\n"
    return Array(xml.utf8)
  }

  /// Text for an attribute or an element: markup characters as entities; a tab, newline or
  /// carriage return in an attribute as a character reference (an XML reader turns a raw one
  /// into a space, so a file name holding one would come back as another name), a carriage
  /// return in an element too (a raw one reads as a newline); characters XML 1.0 cannot hold
  /// (the other control characters; lone surrogates cannot occur in a String) as `\uXXXX`, as
  /// the report's lines show them.
  static func escaped(_ text: String, inAttribute: Bool = true) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      case "\r": result += "&#13;"
      case "\t" where inAttribute, "\n" where inAttribute: result += "&#\(scalar.value);"
      case "\t", "\n": result.unicodeScalars.append(scalar)
      case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}":
        let hex = String(scalar.value, radix: 16, uppercase: true)
        result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// `0.012`: seconds with three decimals.
  static func seconds(_ value: Double) -> String {
    String(format: "%.3f", max(0, value))
  }

  /// `2026-12-06T09:00:00`: the schema's ISO 8601 date and time, UTC, without a zone.
  static func timestamp(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    return String(
      format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!,
      parts.minute!, parts.second!)
  }
}
