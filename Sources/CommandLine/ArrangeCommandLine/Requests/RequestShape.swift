/// Reads the fields of a ``Request`` type from its `Decodable` conformance, as ArgumentParser
/// reads a command's arguments: it decodes the type once from a decoder that records each key
/// asked for, whether it was asked for as required (`decode`) or optional (`decodeIfPresent`),
/// and the type of its value, and hands each required field its type's
/// ``RequestValue/placeholder``.
enum RequestShape {
    /// The fields of `request`, in the order its decoding asks for them (the order of its
    /// stored properties, for a synthesized conformance), each with its help.
    ///
    /// - Throws: ``Unsupported`` when a field's value is not a ``RequestValue``; a test reads
    ///   the shape of every request of the catalogue.
    static func fields<Asked: Request>(of request: Asked.Type) throws -> [RequestField] {
        let recorder = Recorder()
        _ = try request.init(from: ShapeDecoder(recorder: recorder))
        return recorder.fields.map { field in
            RequestField(
                name: field.name, help: Asked.Field(stringValue: field.name).map(Asked.help) ?? "", isRequired: field.isRequired,
                valueType: field.valueType)
        }
    }

    /// A value that is not a ``RequestValue``, or a shape other than one object of fields.
    struct Unsupported: Error {}

    /// The fields recorded so far.
    private final class Recorder {
        var fields: [(name: String, isRequired: Bool, valueType: any RequestValue.Type)] = []

        func record<Value>(_ type: Value.Type, named name: String, isRequired: Bool) throws -> Value {
            guard let valueType = type as? any RequestValue.Type, let placeholder = valueType.placeholder as? Value else { throw Unsupported() }
            fields.append((name, isRequired, valueType))
            return placeholder
        }
    }

    private struct ShapeDecoder: Decoder {
        let recorder: Recorder
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(ShapeContainer(recorder: recorder))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Unsupported() }
        func singleValueContainer() throws -> any SingleValueDecodingContainer { throw Unsupported() }
    }

    /// Answers every key as present and not null, so that a required field's `decode` and an
    /// optional field's `decodeIfPresent` each reach the recorder.
    private struct ShapeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let recorder: Recorder
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) -> Bool { false }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try recorder.record(type, named: key.stringValue, isRequired: true)
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            _ = try recorder.record(type, named: key.stringValue, isRequired: false)
            return nil
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try recorder.record(type, named: key.stringValue, isRequired: true) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try recorder.record(type, named: key.stringValue, isRequired: true) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { throw Unsupported() }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw Unsupported() }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try recorder.record(type, named: key.stringValue, isRequired: true) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { throw Unsupported() }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { throw Unsupported() }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { throw Unsupported() }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { throw Unsupported() }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { throw Unsupported() }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { throw Unsupported() }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { throw Unsupported() }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { throw Unsupported() }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { throw Unsupported() }

        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
            _ = try recorder.record(type, named: key.stringValue, isRequired: false)
            return nil
        }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
            _ = try recorder.record(type, named: key.stringValue, isRequired: false)
            return nil
        }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
            _ = try recorder.record(type, named: key.stringValue, isRequired: false)
            return nil
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw Unsupported()
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw Unsupported() }
        func superDecoder() throws -> any Decoder { throw Unsupported() }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw Unsupported() }
    }
}
