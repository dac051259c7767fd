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
    public init(scope: OrderScope, normalize: Bool) { (self.scope, self.normalize) = (scope, normalize) }

    package var change: SyncChange { .repairOrder(self) }

    package static let members: ChangeMembers<Self> = [.member("scope") { $0.scope }, .member("normalize") { $0.normalize }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(scope: try members.value("scope"), normalize: try members.value("normalize"))
    }

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
