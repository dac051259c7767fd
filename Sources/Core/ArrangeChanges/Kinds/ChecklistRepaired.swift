public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// The keys of an item's checklist were repaired or spread evenly, as ``OrderRepaired`` tells of
/// other orderings: a kind of its own, so that a version without checklists takes it for a
/// change of a newer version, not for a damaged `repairOrder`.
public struct ChecklistRepaired: ChangeKind {
    package static let name: StaticString = "repairChecklist"

    /// The item whose checklist it is.
    public var item: Item.ID
    /// Whether the keys were spread evenly, not only repaired.
    public var normalize: Bool

    /// The change of these parts.
    public init(item: Item.ID, normalize: Bool) {
        self.item = item
        self.normalize = normalize
    }

    package var change: SyncChange { .repairChecklist(self) }

    package init(reading json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) {
        var item: Item.ID?, normalize: Bool?
        try json.members(["item", "normalize"]) { json, member throws(OperationJSONReader.GiveUp) in
            switch member {
            case 0: item = try json.identifier()
            default: normalize = try json.boolean()
            }
        }
        self.init(item: try json.required(item), normalize: try json.required(normalize))
    }

    package func write(to members: inout LogJSON.Members) {
        members.member("item") { $0.id(item) }
        members.member("normalize") { $0.bool(normalize) }
    }

    package var sizeBound: Int { ChangeSize.id + 32 }

    package func apply(in context: ChangeContext) throws {
        try context.repair(.checklist(item), normalize: normalize)
    }
}

extension SyncChange {
    /// A change of the kind ``ChecklistRepaired``, of these parts.
    public static func repairChecklist(item: Item.ID, normalize: Bool) -> SyncChange {
        .repairChecklist(ChecklistRepaired(item: item, normalize: normalize))
    }
}
