import Foundation

extension OperationFile {
    /// Why `line` is not an operation, as a clause that names the field at fault.
    ///
    /// `JSONDecoder` reports a number its type cannot hold (a counter of -1, a sequence of
    /// 1e30) as invalid JSON; such a line is read again, numbers as `Double`, to name the field.
    static func describe(_ error: any Error, in line: Data) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            "the field '\(path(context.codingPath + [key]))' is missing."
        case DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty,
             DecodingError.valueNotFound(_, let context) where context.codingPath.isEmpty:
            "it is not a JSON object."
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "the field '\(path(context.codingPath))' has the wrong type."
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
            numberOutOfRange(in: line) ?? "it is not valid JSON."
        case DecodingError.dataCorrupted(let context):
            "the field '\(path(context.codingPath))' is not valid: \(context.debugDescription)"
        default:
            String(describing: error)
        }
    }

    /// A coding path as a person reads it: `change.moveItems.ids[2]`.
    private static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text
    }

    /// The first sequence, clock milliseconds or clock counter in `line` that its type cannot
    /// hold, as a clause; `nil` when the line is not JSON, or they all fit.
    private static func numberOutOfRange(in line: Data) -> String? {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: line) else { return nil }
        return value.firstNumberOutOfRange(at: [])
    }

    /// Any JSON value, its numbers read as `Double`, whatever their size.
    private enum JSONValue: Decodable {
        case number(Double)
        case object([String: JSONValue])
        case array([JSONValue])
        case other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else if let object = try? container.decode([String: JSONValue].self) {
                self = .object(object)
            } else if let array = try? container.decode([JSONValue].self) {
                self = .array(array)
            } else {
                self = .other
            }
        }

        /// The first number under `sequence`, `milliseconds` or `counter` that does not fit its
        /// type, as a clause naming its field.
        func firstNumberOutOfRange(at keys: [String]) -> String? {
            switch self {
            case .number(let number):
                guard let key = keys.last else { return nil }
                let field = keys.joined(separator: ".")
                let shown = number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
                switch key {
                case "counter" where !(number.rounded() == number && (0...Double(UInt32.max)).contains(number)):
                    return "the field '\(field)' is \(shown); a clock's counter is a whole number from 0 to \(UInt32.max)."
                case "sequence" where !Self.fitsInt64(number), "milliseconds" where !Self.fitsInt64(number):
                    return "the field '\(field)' is \(shown); it must be a whole number from \(Int64.min) to \(Int64.max)."
                default:
                    return nil
                }
            case .object(let members):
                for key in members.keys.sorted() {
                    if let found = members[key]?.firstNumberOutOfRange(at: keys + [key]) { return found }
                }
                return nil
            case .array(let elements):
                for (index, element) in elements.enumerated() {
                    let indexed = keys.isEmpty ? ["[\(index)]"] : keys.dropLast() + [(keys.last ?? "") + "[\(index)]"]
                    if let found = element.firstNumberOutOfRange(at: indexed) { return found }
                }
                return nil
            case .other:
                return nil
            }
        }

        /// Whether `number` is whole and within `Int64`.
        private static func fitsInt64(_ number: Double) -> Bool {
            number.rounded() == number && number >= -0x1p63 && number < 0x1p63
        }
    }
}
