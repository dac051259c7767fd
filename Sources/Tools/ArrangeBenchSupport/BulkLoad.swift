public import ArrangeModel
public import ArrangeStore
public import Foundation

/// Fast set-up of big lists for the benchmarks: everything in one transaction, straight
/// through the repository, without the ordering service.
public enum BulkLoad {
    /// The creation date of every list and item the benchmarks make, so runs are repeatable.
    public static let epoch = Date(timeIntervalSince1970: 1_800_000_000)

    /// The key the ordering service gives the `index`-th item appended to a list: one end gap
    /// (2^32) after the one before.
    public static func appendedKey(_ index: Int) -> Int64 {
        Int64(index) << 32
    }

    /// Creates an empty list.
    public static func makeList(named name: String, in repository: any ItemRepository) throws -> ItemList {
        let list = ItemList(name: name, createdAt: epoch)
        try repository.write { try $0.insert(list) }
        return list
    }

    /// A new item of `list`, not yet stored, titled after `number`.
    public static func item(_ id: Item.ID, number: Int, in list: ItemList.ID, sortIndex: Int64, notes: String = "") -> Item {
        Item(id: id, listID: list, title: "Item \(number)", notes: notes, sortIndex: sortIndex, createdAt: epoch)
    }

    /// Stores `ids.count` items in `list` in one transaction, the `i`-th with the key `key(i)`.
    ///
    /// ```swift
    /// try BulkLoad.fill(list.id, ids: ids, keys: BulkLoad.appendedKey, in: repository)
    /// ```
    public static func fill(
        _ list: ItemList.ID, ids: [Item.ID], keys key: (Int) -> Int64, notes: (Int) -> String = { _ in "" },
        in repository: any ItemRepository
    ) throws {
        try repository.write { transaction in
            for (index, id) in ids.enumerated() {
                try transaction.insert(item(id, number: index, in: list, sortIndex: key(index), notes: notes(index)))
            }
        }
    }

    /// A new list of `count` items keyed as the ordering service appends them, with ids drawn from `random`.
    ///
    /// - Returns: The list and its items' ids in display order.
    public static func appendedList(
        named name: String, count: Int, in repository: any ItemRepository, random: inout some RandomNumberGenerator
    ) throws -> (list: ItemList, ids: [Item.ID]) {
        let list = try makeList(named: name, in: repository)
        let ids = (0..<count).map { _ in Item.ID(using: &random) }
        try fill(list.id, ids: ids, keys: appendedKey, in: repository)
        return (list, ids)
    }
}

extension Identifier {
    /// A version-4 identifier whose random bits come from `random`, so that seeded runs repeat exactly.
    public init(using random: inout some RandomNumberGenerator) {
        let high = random.next()
        let low = random.next()
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index))
            bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index))
        }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let uuid = UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        self.init(rawValue: uuid)
    }
}
