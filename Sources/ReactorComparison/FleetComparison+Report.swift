import Foundation
import ReactorStateMachines
import ReactorTracing

extension FleetComparison {
  /// The report a release manager reads: what was compared, then every significant change
  /// ranked (most significant first, then the largest), one line each, then the transitions
  /// seen on one side only that the sizes cannot tell from chance.
  ///
  /// ```
  /// 3.2.0: GitHubSearchReactor: setError ← search 3.1× as often, 412 of 9,880 → 1,277 of 9,902 leaving {query=non-empty}, p < 0.001
  /// ```
  public var report: [String] {
    var lines: [String] = []
    let types = reactors.count
    lines.append(
      "\(beforeLabel): \(Self.number(reactors.reduce(0) { $0 + $1.beforeCount })) transitions; "
        + "\(afterLabel): \(Self.number(reactors.reduce(0) { $0 + $1.afterCount })) transitions; "
        + "\(types) reactor type\(types == 1 ? "" : "s") on both sides; \(testCount) test"
        + (testCount == 1 ? "" : "s") + " (\(familyCount) able to reach significance), "
        + "false discovery rate \(Self.decimal(alpha)) (Benjamini–Hochberg)")
    for name in onlyBefore { lines.append("only \(beforeLabel) has \(name)") }
    for name in onlyAfter { lines.append("only \(afterLabel) has \(name)") }
    let changes = self.changes
    if changes.isEmpty {
      lines.append("no significant change")
    } else {
      lines.append(
        "\(changes.count) significant change\(changes.count == 1 ? "" : "s"), ranked:")
      lines += changes.map { "  " + line(for: $0) }
    }
    let oneSided = reactors.flatMap(\.oneSided)
    if !oneSided.isEmpty {
      lines.append(
        "\(oneSided.count) transition\(oneSided.count == 1 ? "" : "s") seen on one side only, "
          + "not significant (as likely chance as not, at these sizes):")
      lines += oneSided.map { "  " + line(for: $0) }
    }
    return lines
  }

  /// One change as a sentence: the side it is about, the reactor, the transition, how it
  /// changed, the counts and the adjusted p-value.
  public func line(for change: TransitionChange) -> String {
    let reactor = ReactorIntroduction.shortTypeName(change.reactor)
    let transition = change.transition
    let label = "\(transition.mutation) ← \(transition.action)"
    let state = "{" + transition.source.split(separator: "\n").joined(separator: ", ") + "}"
    let target = "{" + transition.target.split(separator: "\n").joined(separator: ", ") + "}"
    var text: String
    switch change.kind {
    case .added:
      text =
        "\(afterLabel): \(reactor): new \(label) to \(target), "
        + "\(Self.share(change.after)) leaving \(state), none of "
        + "\(Self.number(change.before.total)) in \(beforeLabel)"
    case .removed:
      text =
        "\(afterLabel): \(reactor): no more \(label) to \(target), "
        + "none of \(Self.number(change.after.total)) leaving \(state), "
        + "\(Self.share(change.before)) in \(beforeLabel)"
    case .shift:
      text =
        "\(afterLabel): \(reactor): \(label) \(Self.ratioText(change.ratio)), "
        + "\(Self.share(change.before)) → \(Self.share(change.after)) leaving \(state)"
    case .outcome:
      let verb = Self.outcomeVerbs[change.outcome ?? ""] ?? "end \(change.outcome ?? "")"
      text =
        "\(afterLabel): \(reactor): the effects of \(label) leaving \(state) \(verb) "
        + "\(Self.ratioText(change.ratio)), \(Self.share(change.before)) → "
        + "\(Self.share(change.after))"
    }
    if let through = change.through {
      text +=
        ", from a state only one side reaches, through \(through.mutation) ← "
        + through.action
    } else if let q = change.qValue {
      text += ", " + Self.pText(q)
    } else if let p = change.pValue {
      text += ", p = \(Self.decimal(p)), cannot reach significance at these sizes"
    } else {
      text += ", untested: the other side never leaves this state"
    }
    return text
  }

  static let outcomeVerbs = [
    "failed": "fail", "cancelled": "are cancelled", "running": "are still running at the end",
    "finished": "finish", "sync": "are synchronous",
  ]

  /// `3.1× as often`, `0.4× as often`, `as often`.
  static func ratioText(_ ratio: Double) -> String {
    if ratio.isInfinite { return "newly" }
    if ratio == 0 { return "never" }
    let text =
      ratio >= 10 ? String(Int(ratio.rounded())) : decimal(ratio, places: ratio < 1 ? 2 : 1)
    return "\(text)× as often"
  }

  /// `412 of 9,880`.
  static func share(_ share: TransitionChange.Share) -> String {
    "\(number(share.count)) of \(number(share.total))"
  }

  /// `p < 0.001` or `p = 0.012` (adjusted).
  static func pText(_ p: Double) -> String {
    p < 0.001 ? "p < 0.001" : "p = " + decimal(p, places: 3)
  }

  /// `9,880`: an integer with thousands separators.
  public static func number(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
      result.append(digit)
    }
    return (value < 0 ? "-" : "") + result
  }

  /// A decimal with `places` digits after the point.
  public static func decimal(_ value: Double, places: Int = 2) -> String {
    String(format: "%.\(places)f", value)
  }
}
