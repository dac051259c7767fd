public import ArrangeModel
public import Foundation

/// An id of Things (a 22-character base-58 string such as `2Kx8GvXoSFvJPNbcmQ6Eaz`), and the
/// Arrange ids a Things import makes of it.
///
/// The import derives each id it makes from the Things id, the same on every import, device and
/// platform. So an id of Things stays an alias of what it named: a link written for Things finds
/// the to-do, project, heading, area or tag that the import brought over, on every device the
/// store syncs to, with nothing stored beside it.
///
/// ```swift
/// let alias = ThingsID("2Kx8GvXoSFvJPNbcmQ6Eaz")
/// let item = try await ShowItem(item: alias.item).perform(in: environment)
/// ```
public struct ThingsID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The id as Things writes it.
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The id `text`, as Things writes it.
    public init(_ text: String) {
        self.rawValue = text
    }

    public var description: String { rawValue }

    /// The id of the item the import makes of the to-do with this id.
    public var item: Item.ID { Item.ID(rawValue: uuid("item")) }
    /// The id of the list the import makes of the project with this id, or of the to-dos of the
    /// area with this id that are in no project.
    public var list: ItemList.ID { ItemList.ID(rawValue: uuid("list")) }
    /// The id of the area the import makes of the area with this id.
    public var area: Area.ID { Area.ID(rawValue: uuid("area")) }
    /// The id of the heading the import makes of the heading with this id.
    public var heading: Heading.ID { Heading.ID(rawValue: uuid("heading")) }
    /// The id of the tag the import makes of the tag with this id.
    public var tag: Tag.ID { Tag.ID(rawValue: uuid("tag")) }
    /// The id of the checklist entry the import makes of the checklist item with this id.
    public var checklistItem: ChecklistItem.ID { ChecklistItem.ID(rawValue: uuid("checklist")) }
    /// The id of the repeating series the import makes of the repeating template with this id.
    public var series: Series.ID { Series.ID(rawValue: uuid("series")) }

    /// The id, of the kind `kind`, made of this one.
    private func uuid(_ kind: String) -> UUID {
        Self.uuid(for: kind + ":" + rawValue)
    }

    /// A version 8 (custom) UUID from two 64-bit FNV-1a hashes of `key`, mixed by SplitMix64:
    /// the same on every platform, whatever its `Hasher` seed.
    static func uuid(for key: String) -> UUID {
        func hash(_ seed: UInt64) -> UInt64 {
            var value: UInt64 = 0xCBF2_9CE4_8422_2325 ^ seed
            for byte in key.utf8 {
                value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
            var generator = SeededRandomNumberGenerator(seed: value)
            return generator.next()
        }
        let (high, low) = (hash(0x7468_696E_6773), hash(0x6172_7261_6E67_65))
        var bytes = withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { Array($0) }
        bytes[6] = bytes[6] & 0x0F | 0x80
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
