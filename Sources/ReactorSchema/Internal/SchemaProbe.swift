import ReactorJSON

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Describes `Decodable` types by what their `init(from:)` asks a decoder for.
///
/// The probe calls `init(from:)` with a ``ProbeDecoder`` that makes up values and records
/// every key, element and single value it is asked for, with the schema of its type:
///
/// - Primitives (``PrimitiveType``) are named; arrays, sets, dictionaries and optionals
///   (``ProbedContainer``) are described from their element types and made up empty.
/// - Enums (found in the runtime metadata, ``TypeMetadata``) are probed once per case, with
///   that case's key the only one in `allKeys`. An enum that decodes a single primitive is a
///   raw-value enum; its cases and raw values come from the metadata.
/// - Everything else is probed as a structure. An initializer that rejects the made-up
///   strings and integers is retried with the next ``ProbeCandidate``.
/// - A type met again while it is being probed is a reference; beyond ``maximumDepth``
///   nothing is probed. A type that can't be made up is opaque, or a partial structure if
///   its initializer recorded fields before it failed.
///
/// One probe serves one fingerprint and is then dropped: the samples and failures it keeps
/// are never shared.
final class SchemaProbe {
  /// How deep types nest before the probe stops describing them.
  static let maximumDepth = 32
  /// How many `init(from:)` calls one probe makes at most.
  static let initializerBudget = 10_000

  private var inProgress: [ObjectIdentifier] = []
  /// A made-up value of each type probed so far, for recursive types met again.
  private var samples: [ObjectIdentifier: Any] = [:]
  /// The schemas of types that failed on every candidate, so they are not probed again.
  private var failures: [ObjectIdentifier: TypeSchema] = [:]
  /// The candidate that worked for each type that needed one.
  private var workingCandidates: [ObjectIdentifier: Int] = [:]
  private var initializerCalls = 0

  init() {}

  /// The value a probe makes up for a `URL`.
  private static let sampleURL = URL(string: "https://example.com")

  /// The schema of `T` and a made-up value of it, or `nil` when none can be made.
  func probe<T: Decodable>(_ type: T.Type) -> (schema: TypeSchema, value: T?) {
    if let primitive = PrimitiveType.name(of: T.self) {
      return (.primitive(primitive), PrimitiveType.value(of: T.self, string: "", integer: 0))
    }
    // The JSON coders read and write a URL as its string (``JSONValueEncoder``).
    if T.self == URL.self {
      return (.wrapper(name: "URL", value: .primitive("String")), Self.sampleURL as? T)
    }
    if let container = T.self as? any ProbedContainer.Type {
      return (container.probedSchema(self), container.probedEmptyValue as? T)
    }
    let identifier = ObjectIdentifier(T.self)
    let name = TypeName.of(T.self)
    if inProgress.contains(identifier) {
      return (.reference(name), samples[identifier] as? T)
    }
    if let failure = failures[identifier] { return (failure, nil) }
    guard inProgress.count < Self.maximumDepth, initializerCalls < Self.initializerBudget else {
      return (.opaque(name), nil)
    }
    inProgress.append(identifier)
    defer { inProgress.removeLast() }
    if let cases = TypeMetadata.enumCases(of: T.self) {
      return probeEnumeration(T.self, named: name, cases: cases)
    }
    return probeStructure(T.self, named: name)
  }

  // MARK: - Structures

  private func probeStructure<T: Decodable>(
    _ type: T.Type,
    named name: String
  ) -> (TypeSchema, T?) {
    let identifier = ObjectIdentifier(T.self)
    let attempt = run(
      T.self,
      candidates: ProbeCandidate.fallbacks,
      from: workingCandidates[identifier] ?? 0,
      caseKey: nil
    )
    if let value = attempt.value {
      workingCandidates[identifier] = attempt.candidateIndex
      samples[identifier] = value
      return (attempt.record.schema(named: name, isPartial: false), value)
    }
    let record = attempt.record
    let schema: TypeSchema =
      record.fields.isEmpty || record.single != nil
      ? .opaque(name) : record.schema(named: name, isPartial: true)
    // A failure caused by a recursive type further up may not happen elsewhere.
    if !attempt.lackedValue { failures[identifier] = schema }
    return (schema, nil)
  }

  // MARK: - Enumerations

  private func probeEnumeration<T: Decodable>(
    _ type: T.Type,
    named name: String,
    cases: [TypeMetadata.Record]
  ) -> (TypeSchema, T?) {
    let identifier = ObjectIdentifier(T.self)
    var attempts: [Attempt<T>] = []
    for (index, enumCase) in cases.enumerated() {
      let attempt = runCase(T.self, named: enumCase.name, at: index)
      if index == 0, attempt.record.single != nil {
        return probeSingleValueEnumeration(T.self, named: name, cases: cases, first: attempt)
      }
      if let value = attempt.value, samples[identifier] == nil { samples[identifier] = value }
      attempts.append(attempt)
    }
    // Cases whose payload needed a value of this very enum get another try once one exists.
    if samples[identifier] != nil {
      for index in attempts.indices where attempts[index].value == nil {
        guard attempts[index].lackedValue else { continue }
        attempts[index] = runCase(T.self, named: cases[index].name, at: index)
      }
    }
    // Cases are named by their coding keys, which custom `CodingKeys` may spell otherwise.
    let schemaCases = zip(cases, attempts)
      .map { enumCase, attempt in
        let key = attempt.frame.caseCodingKey ?? enumCase.name
        return TypeSchema.Case(name: key, fields: attempt.record.fieldSchemas)
      }
      .sorted { JSONObject.keyPrecedes($0.name, $1.name) }
    let isPartial = attempts.contains { $0.value == nil }
    return (
      .enumeration(name: name, rawValue: nil, cases: schemaCases, isPartial: isPartial),
      samples[identifier] as? T
    )
  }

  /// Probes the case `name`, the `index`th in tag order: its key is the one `allKeys` holds,
  /// and its name and index are the first candidates, for enums that decode a discriminator.
  private func runCase<T: Decodable>(
    _ type: T.Type,
    named name: String,
    at index: Int
  ) -> Attempt<T> {
    run(
      T.self,
      candidates: [ProbeCandidate(string: name, integer: index)] + ProbeCandidate.fallbacks,
      from: 0,
      caseKey: name
    )
  }

  /// An enum whose `init(from:)` decodes one value: a raw-value enum when that value is a
  /// primitive, otherwise a wrapper of whatever it decodes.
  private func probeSingleValueEnumeration<T: Decodable>(
    _ type: T.Type,
    named name: String,
    cases: [TypeMetadata.Record],
    first: Attempt<T>
  ) -> (TypeSchema, T?) {
    var sample = first.value
    var rawValues = [JSONValue?](repeating: nil, count: cases.count)
    for index in cases.indices {
      guard let value = TypeMetadata.payloadFreeCase(T.self, tag: index, of: cases) else { break }
      if sample == nil { sample = value }
      rawValues[index] = Self.rawValue(of: value)
    }
    if sample == nil {
      // Default raw values: the case names, or the integers from 0 (and from 1).
      let candidates =
        cases.enumerated().map { ProbeCandidate(string: $1.name, integer: $0) }
        + [ProbeCandidate(string: "", integer: cases.count)] + ProbeCandidate.fallbacks
      sample = run(T.self, candidates: candidates, from: 0, caseKey: nil).value
    }
    if let sample { samples[ObjectIdentifier(T.self)] = sample }

    guard let single = first.record.single else { return (.opaque(name), sample) }
    guard case .primitive(let rawValueType) = single else {
      return (.wrapper(name: name, value: single), sample)
    }
    let schemaCases = zip(cases, rawValues)
      .map { TypeSchema.Case(name: $0.name, rawValue: $1) }
      .sorted { JSONObject.keyPrecedes($0.name, $1.name) }
    return (
      .enumeration(name: name, rawValue: rawValueType, cases: schemaCases, isPartial: false),
      sample
    )
  }

  /// The raw value of a `RawRepresentable` value as JSON, if it is a string, number or Boolean.
  private static func rawValue(of value: Any) -> JSONValue? {
    guard let representable = value as? any RawRepresentable else { return nil }
    switch representable.rawValue as Any {
    case let string as String: return .string(string)
    case let boolean as Bool: return .bool(boolean)
    case let integer as any BinaryInteger:
      if let signed = Int64(exactly: integer) { return .int(signed) }
      return UInt64(exactly: integer).map(JSONValue.uint)
    case let number as Double: return .double(number)
    case let number as Float: return .double(Double(number))
    default: return nil
    }
  }

  // MARK: - Attempts

  /// The outcome of calling `init(from:)` with one candidate after another.
  private struct Attempt<T> {
    /// The value made, if some candidate worked.
    var value: T?
    /// The successful call, or the failed one that recorded the most.
    var frame: ProbeFrame
    /// The index of the candidate that worked.
    var candidateIndex = 0
    /// What ``frame`` recorded.
    var record: ProbeRecord { frame.root }
    /// Whether the last failure was a nested value that could not be made up, which no other
    /// candidate can fix.
    var lackedValue = false
  }

  private func run<T: Decodable>(
    _ type: T.Type,
    candidates: [ProbeCandidate],
    from start: Int,
    caseKey: String?
  ) -> Attempt<T> {
    var best: ProbeFrame?
    var lackedValue = false
    for index in start..<candidates.count {
      guard initializerCalls < Self.initializerBudget else { break }
      initializerCalls += 1
      let frame = ProbeFrame(probe: self, candidate: candidates[index])
      let decoder = ProbeDecoder(frame: frame, record: frame.root, codingPath: [], caseKey: caseKey)
      do {
        let value = try T(from: decoder)
        return Attempt(value: value, frame: frame, candidateIndex: index)
      } catch {
        if best.map({ frame.root.recordedCount > $0.root.recordedCount }) ?? true { best = frame }
        lackedValue = error is ProbeFailure
        if lackedValue || !frame.usedCandidate { break }
      }
    }
    let frame = best ?? ProbeFrame(probe: self, candidate: candidates[0])
    return Attempt(value: nil, frame: frame, lackedValue: lackedValue)
  }
}
