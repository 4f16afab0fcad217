/// Walks two fingerprints of one type side by side and collects what differs, ignoring type
/// names: exactly what the fingerprints' digests cover.
struct SchemaComparison {
  /// The changes found so far, unsorted.
  private(set) var changes: [SchemaChange] = []

  /// Compares the fingerprint `old` was with `new`, reporting at `path`.
  mutating func compare(_ old: TypeFingerprint, _ new: TypeFingerprint, at path: String) {
    if old.isCodable != new.isCodable {
      report(path, .codabilityChanged(isCodable: new.isCodable))
    }
    switch (old.shape, new.shape) {
    case (let old?, let new?):
      compare(old, new, at: path)
    case (nil, nil):
      break
    case (_, let newShape):
      // A type that gained or lost `Codable` was told above.
      if old.isCodable == new.isCodable {
        report(path, .decodabilityChanged(isDecodable: newShape != nil))
      }
    }
  }

  /// Compares the schema `old` was with `new`, reporting at `path`.
  mutating func compare(_ old: TypeSchema, _ new: TypeSchema, at path: String) {
    switch (old, new) {
    case (.primitive(let oldName), .primitive(let newName)):
      if oldName != newName { report(path, .typeChanged(from: oldName, to: newName)) }
    case (.optional(let old), .optional(let new)):
      compare(old, new, at: path)
    case (.array(let old), .array(let new)), (.set(let old), .set(let new)):
      compare(old, new, at: path + "[]")
    case (.dictionary(let oldKey, let oldValue), .dictionary(let newKey, let newValue)):
      if oldKey.anonymized != newKey.anonymized {
        report(path, .typeChanged(from: old.description, to: new.description))
      } else {
        compare(oldValue, newValue, at: path + "[]")
      }
    case (.tuple(let oldElements), .tuple(let newElements)):
      guard oldElements.count == newElements.count else {
        report(path, .typeChanged(from: old.description, to: new.description))
        return
      }
      for (index, (old, new)) in zip(oldElements, newElements).enumerated() {
        compare(old, new, at: "\(path)[\(index)]")
      }
    case (
      .structure(_, let oldFields, let oldIsPartial), .structure(_, let newFields, let newIsPartial)
    ):
      compare(oldFields, newFields, at: path)
      if oldIsPartial != newIsPartial {
        report(path, .completenessChanged(isPartial: newIsPartial))
      }
    case (.wrapper(_, let old), .wrapper(_, let new)):
      compare(old, new, at: path)
    case (
      .enumeration(_, let oldRawValue, let oldCases, let oldIsPartial),
      .enumeration(_, let newRawValue, let newCases, let newIsPartial)
    ):
      if oldRawValue != newRawValue {
        report(path, .rawValueTypeChanged(from: oldRawValue, to: newRawValue))
      }
      compare(oldCases, newCases, at: path)
      if oldIsPartial != newIsPartial {
        report(path, .completenessChanged(isPartial: newIsPartial))
      }
    case (.reference, .reference), (.opaque, .opaque):
      break
    case (.optional(let wrapped), _) where wrapped.anonymized == new.anonymized:
      report(path, .optionalityChanged(isOptional: false))
    case (_, .optional(let wrapped)) where wrapped.anonymized == old.anonymized:
      report(path, .optionalityChanged(isOptional: true))
    default:
      report(path, .typeChanged(from: old.description, to: new.description))
    }
  }

  private mutating func compare(
    _ old: [TypeSchema.Field],
    _ new: [TypeSchema.Field],
    at path: String
  ) {
    let oldByName = Dictionary(old.map { ($0.name, $0.schema) }, uniquingKeysWith: { a, _ in a })
    let newByName = Dictionary(new.map { ($0.name, $0.schema) }, uniquingKeysWith: { a, _ in a })
    for field in old where newByName[field.name] == nil {
      report(path, .fieldRemoved(field.name))
    }
    for field in new {
      guard let oldSchema = oldByName[field.name] else {
        report(path, .fieldAdded(field.name))
        continue
      }
      compare(oldSchema, field.schema, at: "\(path).\(field.name)")
    }
  }

  private mutating func compare(
    _ old: [TypeSchema.Case],
    _ new: [TypeSchema.Case],
    at path: String
  ) {
    let oldByName = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    let newByName = Dictionary(new.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    for oldCase in old where newByName[oldCase.name] == nil {
      report(path, .caseRemoved(oldCase.name))
    }
    for newCase in new {
      guard let oldCase = oldByName[newCase.name] else {
        report(path, .caseAdded(newCase.name))
        continue
      }
      let casePath = "\(path).\(newCase.name)"
      if oldCase.rawValue != newCase.rawValue {
        report(casePath, .rawValueChanged(from: oldCase.rawValue, to: newCase.rawValue))
      }
      compare(oldCase.fields, newCase.fields, at: casePath)
    }
  }

  private mutating func report(_ path: String, _ kind: SchemaChange.Kind) {
    changes.append(SchemaChange(path: path, kind: kind))
  }
}
