import Foundation

/// Request parameters: names and values for a query, a form or a JSON body, `Sendable` so that
/// an ``HTTPTask`` (and an endpoint that holds one) can cross tasks.
///
/// Nested literals need no casts, and variables go in as they are:
///
/// ```swift
/// let parameters: Parameters = ["page": page, "filter": ["year": 1995, "genres": ["crime"]], "adult": false]
/// ```
///
/// A dictionary built at run time, such as one `JSONSerialization` returned, converts with
/// ``Swift/Dictionary/init(_:)``.
///
/// A query or form has no way to write `nil`, an empty array or an empty dictionary, so
/// those add no pair there (the common convention); a JSON body writes them as `null`, `[]` and `{}`.
public typealias Parameters = [String: any ParameterValue]

/// A value ``Parameters`` can hold: `String`, `Bool`, any integer, `Double`, `Float`, `Decimal`,
/// optionals of these, and arrays and dictionaries of them, nested to any depth.
///
/// The encoders write exactly those kinds (NaN and infinity excepted). A value of any other type
/// that conforms fails to encode with ``APIError/encodingFailed(_:)`` naming its key path, as an
/// unsupported value of a run-time dictionary does.
///
/// A nested dictionary is ``Parameters`` itself, so that a literal may mix value types; a variable
/// typed `[String: Int]` (say) goes in as `Parameters(filter)`.
public protocol ParameterValue: Sendable {}

extension String: ParameterValue {}
extension Bool: ParameterValue {}
extension Int: ParameterValue {}
extension Int8: ParameterValue {}
extension Int16: ParameterValue {}
extension Int32: ParameterValue {}
extension Int64: ParameterValue {}
extension UInt: ParameterValue {}
extension UInt8: ParameterValue {}
extension UInt16: ParameterValue {}
extension UInt32: ParameterValue {}
extension UInt64: ParameterValue {}
extension Double: ParameterValue {}
extension Float: ParameterValue {}
extension Decimal: ParameterValue {}
extension Optional: ParameterValue where Wrapped: ParameterValue {}
extension Array: ParameterValue where Element: ParameterValue {}
// `Value == any ParameterValue` rather than `Value: ParameterValue`, so that a nested literal
// with values of different types (`["year": 1995, "genres": ["crime"]]`) is `Parameters` too.
extension Dictionary: ParameterValue where Key == String, Value == any ParameterValue {}

extension Dictionary where Key == String, Value == any ParameterValue {
    /// Parameters from a dictionary built at run time, such as one `JSONSerialization` returned.
    ///
    /// Every value the encoders can write is kept, nested arrays and dictionaries included;
    /// `NSNumber` and `NSNull` become the number, boolean or `nil` they hold. Any other value is
    /// kept as unsupported: encoding then fails with ``APIError/encodingFailed(_:)`` naming its key
    /// path, as it would have for the value itself.
    /// - Parameter dictionary: The names and values, of any types.
    public init(_ dictionary: [String: Any]) {
        self = dictionary.mapValues(Self.parameterValue)
    }

    /// `value` as a ``ParameterValue``.
    private static func parameterValue(_ value: Any) -> any ParameterValue {
        // Objective-C numbers (from JSONSerialization, say) first, written as they format themselves:
        // on Apple platforms an `NSNumber` holding 1 would otherwise also cast to `Bool`.
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            return String(cString: number.objCType) == "c" ? number.boolValue : FormattedNumber(text: number.stringValue)
        }
        switch value {
        // A bridged string first: on Apple platforms an `NSString` is a `String` only once cast to one.
        case let string as String: return string
        case let value as any ParameterValue: return value
        case let array as [Any]: return ParameterArray(elements: array.map(parameterValue))
        case let dictionary as [String: Any]: return Parameters(dictionary)
        case is NSNull: return NullParameter()
        case let optional as any OptionalParameter: return optional.wrappedParameter.map(parameterValue) ?? NullParameter()
        default: return UnsupportedParameter(reason: ParameterKind.reason(value))
        }
    }
}

/// An `NSNumber` of a run-time dictionary, as it formats itself.
struct FormattedNumber: ParameterValue {
    let text: String
}

/// An array of a run-time dictionary, its elements converted one by one.
struct ParameterArray: ParameterValue {
    let elements: [any ParameterValue]
}

/// `NSNull` of a run-time dictionary: `nil`.
struct NullParameter: ParameterValue {}

/// A value of a run-time dictionary that no encoder can write, kept so that encoding fails naming its key path.
struct UnsupportedParameter: ParameterValue {
    let reason: String
}
