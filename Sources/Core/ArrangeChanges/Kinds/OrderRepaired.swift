public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// The keys of an ordering were repaired (`normalize` false: ties and cramped gaps only) or
/// spread evenly (`normalize` true); its order did not change. A checklist's are logged as
/// ``ChecklistRepaired``, the areas' and an area's lists' as ``AreasRepaired``, a list's
/// headings' and a heading's items' as ``HeadingsRepaired``.
public struct OrderRepaired: ChangeKind {
    package static let name: StaticString = "repairOrder"

    /// The ordering.
    public var scope: OrderScope
    /// Whether the keys were spread evenly, not only repaired.
    public var normalize: Bool

    /// The change of these parts.
    public init(scope: OrderScope, normalize: Bool) {
        self.scope = scope
        self.normalize = normalize
    }

    package var change: SyncChange { .repairOrder(self) }

    package init(reading json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) {
        var scope: OrderScope?, normalize: Bool?
        try json.members(["scope", "normalize"]) { json, member throws(OperationJSONReader.GiveUp) in
            switch member {
            case 0: scope = try json.orderScope()
            default: normalize = try json.boolean()
            }
        }
        self.init(scope: try json.required(scope), normalize: try json.required(normalize))
    }

    package func write(to members: inout LogJSON.Members) {
        members.member("scope") { $0.scope(scope) }
        members.member("normalize") { $0.bool(normalize) }
    }

    package var sizeBound: Int { ChangeSize.id + 32 }

    package func apply(in context: ChangeContext) throws {
        try context.repair(scope, normalize: normalize)
    }
}

extension SyncChange {
    /// A change of the kind ``OrderRepaired``, of these parts.
    public static func repairOrder(scope: OrderScope, normalize: Bool) -> SyncChange {
        .repairOrder(OrderRepaired(scope: scope, normalize: normalize))
    }
}
