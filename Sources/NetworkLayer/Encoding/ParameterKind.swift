import Foundation

/// One parameter value sorted into the kinds the encoders know how to write.
///
/// Classification looks one level deep; encoders recurse into `.array` and `.dictionary`
/// themselves, so no intermediate tree is built.
enum ParameterKind {
    /// `nil` (an empty optional, or `NSNull` from a run-time dictionary).
    case null
    case bool(Bool)
    /// A finite number, already formatted (`42`, `1.5`, `1e-07`).
    case number(String)
    case string(String)
    case array([Any])
    case dictionary(Parameters)

    /// Sorts `value` into a kind, or returns `nil` when no encoder can write it.
    init?(_ value: Any) {
        // The common types by their exact type first: each failed cast below costs a few hundred
        // instructions, and an Int went through three of them.
        switch ObjectIdentifier(type(of: value)) {
        case ObjectIdentifier(String.self):
            if let string = value as? String {
                self = .string(string)
                return
            }
        case ObjectIdentifier(Int.self):
            if let integer = value as? Int {
                self = .number(String(integer))
                return
            }
        case ObjectIdentifier(Bool.self):
            if let bool = value as? Bool {
                self = .bool(bool)
                return
            }
        default:
            break
        }
        switch value {
        case let string as String: self = .string(string)
        case let bool as Bool: self = .bool(bool)
        // Int and Double first: a cast to the concrete type is far cheaper than to `any BinaryInteger`.
        case let integer as Int: self = .number(String(integer))
        case let double as Double where double.isFinite: self = .number(String(describing: double))
        case let dictionary as Parameters: self = .dictionary(dictionary)
        case let integer as any BinaryInteger: self = .number(String(describing: integer))
        case let double as Double:
            guard double.isFinite else { return nil }
            self = .number(String(describing: double))
        case let float as Float:
            guard float.isFinite else { return nil }
            self = .number(String(describing: float))
        case let decimal as Decimal:
            guard !decimal.isNaN else { return nil }
            self = .number(decimal.description)
        case let array as [Any]: self = .array(array)
        case let number as FormattedNumber: self = .number(number.text)
        case let array as ParameterArray: self = .array(array.elements as [Any])
        case is NullParameter: self = .null
        case let optional as any OptionalParameter:
            guard let wrapped = optional.wrappedParameter else {
                self = .null
                return
            }
            self.init(wrapped)
        default: return nil
        }
    }

    /// The error for a value at `keyPath` that no encoder can write.
    static func unsupported(_ value: Any, at keyPath: String) -> APIError {
        .encodingFailed("parameter '\(keyPath)': \(reason(value))")
    }

    /// Why no encoder can write `value`.
    static func reason(_ value: Any) -> String {
        switch value {
        case let double as Double where !double.isFinite: "\(double) is not a finite number"
        case let float as Float where !float.isFinite: "\(float) is not a finite number"
        case let decimal as Decimal where decimal.isNaN: "NaN is not a number"
        case let unsupported as UnsupportedParameter: unsupported.reason
        default:
            "\(type(of: value)) is not supported; use String, Bool, an integer, Double, Decimal, or arrays and dictionaries of them"
        }
    }
}

/// Lets classification unwrap an `Optional` hidden inside `Any`.
protocol OptionalParameter {
    var wrappedParameter: Any? { get }
}

extension Optional: OptionalParameter {
    var wrappedParameter: Any? {
        switch self {
        case .some(let wrapped): wrapped
        case .none: nil
        }
    }
}

extension Dictionary where Key == String {
    /// The entries sorted by the UTF-8 bytes of their keys, so encoded output is deterministic and
    /// in the order byte-wise canonicalisations (AWS SigV4, for one) expect. Swift's `<` on `String`
    /// would order canonically equivalent forms together instead: `"A\u{30A}"` after `"a"`.
    var sortedByKey: [(key: String, value: Value)] {
        sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }
}
