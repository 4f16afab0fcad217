@_spi(Reflection) import Swift

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The types whose values are plain data: no class instance, closure or existential anywhere
/// in them, beyond the private storage of the standard library's strings and collections and
/// of Foundation's `Data` and `URL`.
///
/// A value of such a type keeps no object alive and reaches none when it is encoded, on any
/// thread: a session recorder hands the actions, mutations and states of a reactor whose
/// types are all object-free to its writer thread to encode, where a state that holds
/// reactors (or anything that could) is encoded on the main actor at once.
///
/// The check reads types only, never values, so it holds for every value of the type: a
/// struct or tuple is object-free when its stored properties are (read with the standard
/// library's `_forEachField`, as `Mirror` reads them); an enum or optional when its payloads
/// are (``TypeMetadata/enumPayloadTypes(of:)``); `Array`, `ContiguousArray`, `ArraySlice`,
/// `Set` and `Dictionary` when their elements are; a type without references at all
/// (`_isPOD`) always. A class, an existential, a function, or anything the metadata does not
/// say, is not. A type that contains itself (through an array, or an indirect case) is
/// object-free when the rest of it is.
package enum ObjectFreeTypes {
  /// How many types one check visits before it answers no: a generic type can nest without
  /// end (`struct Deeper<T> { var next: [Deeper<[T]>] }`).
  static let maximumTypeCount = 1_000

  /// Whether every value of `type` is plain data, as the type's description says.
  /// - Parameter type: The type.
  /// - Returns: `true` only when no value of it can hold a class instance, closure or
  ///   existential other than the standard library's and Foundation's value storage.
  package static func contains(_ type: Any.Type) -> Bool {
    var scan = Scan()
    return scan.isObjectFree(type)
  }

  /// One check's walk over the types a type is made of.
  private struct Scan {
    /// The types being checked, further up the walk.
    var visiting: Set<ObjectIdentifier> = []
    var visitedCount = 0

    mutating func isObjectFree(_ type: Any.Type) -> Bool {
      if isPOD(type) { return true }
      let id = ObjectIdentifier(type)
      // A type met again inside itself: the outer check answers for the rest of it.
      if visiting.contains(id) { return true }
      visitedCount += 1
      guard visitedCount <= ObjectFreeTypes.maximumTypeCount else { return false }
      if type == String.self || type == Data.self || type == URL.self { return true }
      if type is AnyObject.Type { return false }
      visiting.insert(id)
      defer { visiting.remove(id) }
      if let collection = type as? any ElementTypes.Type {
        return collection.elementTypes.allSatisfy { isObjectFree($0) }
      }
      if let payloads = TypeMetadata.enumPayloadTypes(of: type) {
        return payloads.allSatisfy { isObjectFree($0) }
      }
      // Structs and tuples; anything else (an enum whose payloads do not resolve, an
      // existential, a function) it turns down. `_forEachField` is asked of those two only:
      // it reads other kinds as if given a value.
      guard TypeMetadata.isStructOrTuple(type) else { return false }
      var fields: [Any.Type] = []
      let isRead = _forEachField(of: type, options: []) { _, _, field, _ in
        fields.append(field)
        return true
      }
      return isRead && fields.allSatisfy { isObjectFree($0) }
    }

    private func isPOD(_ type: Any.Type) -> Bool {
      func check<T>(_: T.Type) -> Bool { _isPOD(T.self) }
      return check(type)
    }
  }
}

/// The standard library's collections, whose elements sit behind storage of their own that
/// `_forEachField` does not see through.
private protocol ElementTypes {
  static var elementTypes: [Any.Type] { get }
}

extension Array: ElementTypes {
  static var elementTypes: [Any.Type] { [Element.self] }
}

extension ContiguousArray: ElementTypes {
  static var elementTypes: [Any.Type] { [Element.self] }
}

extension ArraySlice: ElementTypes {
  static var elementTypes: [Any.Type] { [Element.self] }
}

extension Set: ElementTypes {
  static var elementTypes: [Any.Type] { [Element.self] }
}

extension Dictionary: ElementTypes {
  static var elementTypes: [Any.Type] { [Key.self, Value.self] }
}
