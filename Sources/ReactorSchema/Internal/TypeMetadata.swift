/// Reads the field and case names of structs and enums from the Swift runtime's reflection
/// metadata, the same records `Mirror` uses, without needing a value of the type.
///
/// The layout (verified by the tests against `Mirror` on this toolchain):
///
/// - Value-type metadata: the kind (a pointer-sized integer: struct `0x200`, enum `0x201`,
///   optional `0x202`; a tuple's is `0x301`) at offset 0, a pointer to the nominal type descriptor at offset 8.
/// - Type descriptor: flags `UInt32` (kind in the low 5 bits: struct 17, enum 18), parent,
///   name and access function (each an `Int32` relative pointer), then at offset 16 the
///   relative pointer to the field descriptor. Structs follow with `NumFields: UInt32` at 20;
///   enums with the payload case count (low 24 bits) at 20 and the empty case count at 24.
/// - Field descriptor: `MangledTypeName: Int32`, `Superclass: Int32`, `Kind: UInt16`
///   (struct 0, enum 2, multi-payload enum 3), `FieldRecordSize: UInt16`, `NumFields: UInt32`,
///   then the records: `Flags: UInt32`, `MangledTypeName: Int32` (0 when an enum case has no
///   payload) and `FieldName: Int32`, a relative pointer to a NUL-terminated name.
///
/// Enum records come in tag order: payload cases first, then the cases without payload, each
/// group in declaration order. A record's `MangledTypeName` is the payload's type as a mangled
/// name, which may hold symbolic references: a byte 0x01–0x17 followed by a 4-byte relative
/// offset, or 0x18–0x1F followed by a pointer; the runtime's
/// `swift_getTypeByMangledNameInContext` (the standard library's
/// `_getTypeByMangledNameInContext`, what `Mirror` uses for a child's type) resolves it, given
/// the type descriptor as context and the metadata's generic arguments, which an enum's (or
/// optional's) metadata holds from offset 16. Every read is checked (kinds, counts, non-null
/// offsets, name length); anything unexpected gives `nil`, never a crash.
enum TypeMetadata {
  /// One record of a field descriptor.
  struct Record: Equatable {
    /// The field or case name.
    var name: String
    /// Whether the record has a type: always for struct fields; for enum cases, whether the
    /// case has a payload.
    var hasType: Bool
  }

  /// The largest number of records believed.
  static let maximumRecordCount = 10_000

  private static let structMetadataKind: UInt = 0x200
  private static let enumMetadataKind: UInt = 0x201
  private static let optionalMetadataKind: UInt = 0x202
  private static let tupleMetadataKind: UInt = 0x301
  /// The longest mangled type name believed, in bytes.
  private static let maximumMangledNameLength = 4096
  private static let structDescriptorKind: UInt32 = 17
  private static let enumDescriptorKind: UInt32 = 18
  private static let maximumNameLength = 1024

  /// The cases of an enum (not `Optional`), in tag order; `nil` if `type` is not an enum or
  /// its metadata can't be read.
  static func enumCases(of type: Any.Type) -> [Record]? {
    guard let found = records(of: type, metadataKind: enumMetadataKind) else { return nil }
    let (descriptor, records, _) = found
    let payloadCases = Int(
      descriptor.loadUnaligned(fromByteOffset: 20, as: UInt32.self) & 0xFF_FFFF)
    let emptyCases = Int(descriptor.loadUnaligned(fromByteOffset: 24, as: UInt32.self))
    guard payloadCases + emptyCases == records.count,
      records.filter(\.hasType).count == payloadCases
    else { return nil }
    return records
  }

  /// Whether `type` is a struct or a tuple, as its metadata's kind says (tuple `0x301`).
  static func isStructOrTuple(_ type: Any.Type) -> Bool {
    let kind = unsafeBitCast(type, to: UnsafeRawPointer.self).loadUnaligned(as: UInt.self)
    return kind == structMetadataKind || kind == tupleMetadataKind
  }

  /// The payload types of an enum's cases (an optional's wrapped type), in tag order, one per
  /// case with a payload (a tuple for a case with several values); `nil` if `type` is not an
  /// enum or optional, or a name does not resolve.
  static func enumPayloadTypes(of type: Any.Type) -> [Any.Type]? {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    let kind = metadata.loadUnaligned(as: UInt.self)
    guard kind == enumMetadataKind || kind == optionalMetadataKind,
      let found = records(of: type, metadataKind: kind)
    else { return nil }
    let (descriptor, fieldDescriptor, count, recordSize) = found.layout
    var types: [Any.Type] = []
    for index in 0..<count {
      let record = fieldDescriptor + 16 + index * recordSize
      guard let name = relativeTarget(record + 4) else { continue }
      guard let length = mangledNameLength(at: name),
        let payload = _getTypeByMangledNameInContext(
          name.assumingMemoryBound(to: UInt8.self), UInt(length),
          genericContext: descriptor, genericArguments: metadata + 16)
      else { return nil }
      types.append(payload)
    }
    return types
  }

  /// The length of the mangled name at `name`, its symbolic references skipped whole; `nil`
  /// past ``maximumMangledNameLength``.
  private static func mangledNameLength(at name: UnsafeRawPointer) -> Int? {
    var length = 0
    while length <= maximumMangledNameLength {
      switch name.load(fromByteOffset: length, as: UInt8.self) {
      case 0: return length
      case 0x01...0x17: length += 1 + 4
      case 0x18...0x1F: length += 1 + MemoryLayout<UnsafeRawPointer>.size
      default: length += 1
      }
    }
    return nil
  }

  /// The stored properties of a struct, in declaration order; `nil` if `type` is not a struct
  /// or its metadata can't be read.
  static func structFields(of type: Any.Type) -> [Record]? {
    guard let found = records(of: type, metadataKind: structMetadataKind) else { return nil }
    let (descriptor, records, _) = found
    let fieldCount = Int(descriptor.loadUnaligned(fromByteOffset: 20, as: UInt32.self))
    guard fieldCount == records.count, records.allSatisfy(\.hasType) else { return nil }
    return records
  }

  /// Builds a case of a payload-free enum from its tag.
  ///
  /// Only when `T` has no payloads and its layout is the plain tag this needs: a trivial type
  /// of 0 bytes for one case, 1 byte for up to 256 cases, 2 bytes for up to 65,536. Tags number
  /// such cases in declaration order.
  /// - Parameters:
  ///   - type: The enum.
  ///   - tag: The case's index in `cases`.
  ///   - cases: `T`'s cases, as ``enumCases(of:)`` read them.
  /// - Returns: The case, or `nil` when `T`'s layout is not the expected one.
  static func payloadFreeCase<T>(_ type: T.Type, tag: Int, of cases: [Record]) -> T? {
    guard !cases.contains(where: \.hasType) else { return nil }
    let caseCount = cases.count
    let expectedSize =
      switch caseCount {
      case 1: 0
      case 2...256: 1
      case 257...65_536: 2
      default: -1
      }
    guard _isPOD(T.self), MemoryLayout<T>.size == expectedSize, (0..<caseCount).contains(tag)
    else { return nil }
    return withUnsafeTemporaryAllocation(
      byteCount: 2,
      alignment: max(MemoryLayout<T>.alignment, 2)
    ) { buffer in
      if expectedSize == 2 {
        buffer.storeBytes(of: UInt16(tag), as: UInt16.self)
      } else {
        buffer.storeBytes(of: UInt8(truncatingIfNeeded: tag), as: UInt8.self)
      }
      return buffer.baseAddress!.load(as: T.self)
    }
  }

  /// The type descriptor and the field records of a struct or enum (or optional), and where
  /// the records are.
  private static func records(
    of type: Any.Type,
    metadataKind: UInt
  ) -> (
    descriptor: UnsafeRawPointer, records: [Record],
    layout: (
      descriptor: UnsafeRawPointer, fieldDescriptor: UnsafeRawPointer, count: Int,
      recordSize: Int
    )
  )? {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    guard metadata.loadUnaligned(as: UInt.self) == metadataKind,
      let descriptor = metadata.loadUnaligned(fromByteOffset: 8, as: UnsafeRawPointer?.self)
    else { return nil }
    let isEnum = metadataKind == enumMetadataKind || metadataKind == optionalMetadataKind
    let expectedDescriptorKind = isEnum ? enumDescriptorKind : structDescriptorKind
    guard descriptor.loadUnaligned(as: UInt32.self) & 0x1F == expectedDescriptorKind,
      let fieldDescriptor = relativeTarget(descriptor + 16)
    else { return nil }

    let kind = fieldDescriptor.loadUnaligned(fromByteOffset: 8, as: UInt16.self)
    let recordSize = Int(fieldDescriptor.loadUnaligned(fromByteOffset: 10, as: UInt16.self))
    let count = Int(fieldDescriptor.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
    let kindMatches = isEnum ? (kind == 2 || kind == 3) : kind == 0
    guard kindMatches, recordSize >= 12, count <= maximumRecordCount else { return nil }

    var records: [Record] = []
    records.reserveCapacity(count)
    for index in 0..<count {
      let record = fieldDescriptor + 16 + index * recordSize
      let hasType = record.loadUnaligned(fromByteOffset: 4, as: Int32.self) != 0
      guard let namePointer = relativeTarget(record + 8), let name = cString(at: namePointer)
      else { return nil }
      records.append(Record(name: name, hasType: hasType))
    }
    return (descriptor, records, (descriptor, fieldDescriptor, count, recordSize))
  }

  /// Follows the 32-bit relative pointer stored at `field`; `nil` for a null offset.
  private static func relativeTarget(_ field: UnsafeRawPointer) -> UnsafeRawPointer? {
    let offset = field.loadUnaligned(as: Int32.self)
    guard offset != 0 else { return nil }
    return field + Int(offset)
  }

  /// The non-empty UTF-8 string that ends at the first NUL within the length limit.
  private static func cString(at pointer: UnsafeRawPointer) -> String? {
    var length = 0
    while length <= maximumNameLength, pointer.load(fromByteOffset: length, as: UInt8.self) != 0 {
      length += 1
    }
    guard length > 0, length <= maximumNameLength else { return nil }
    let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
    return String(validating: bytes, as: UTF8.self)
  }
}
