public import ArrangeModel

/// A transaction in front of another, to which it hands every call.
///
/// Subclass it to watch what a body does to a transaction: override the calls you watch, and
/// call `super` to pass them on. The transaction it stands in front of does the work. Every
/// write goes through ``apply(_:)``, so a subclass that watches the writes overrides that alone.
open class ForwardingTransaction: ItemWriting {
    /// The transaction that does the work.
    public let base: any ItemWriting

    /// A transaction in front of `base`.
    public init(_ base: any ItemWriting) {
        self.base = base
    }

    // MARK: Reading

    open func items(_ request: ItemRequest) throws -> [Item] { try base.items(request) }
    open func standing(ofItem id: Item.ID) throws -> ItemStanding? { try base.standing(ofItem: id) }
    open func place(ofItem id: Item.ID) throws -> ItemPlace? { try base.place(ofItem: id) }
    open func datedStandings(through day: Day) throws -> [DatedStanding] { try base.datedStandings(through: day) }
    open func entries(_ request: EntryRequest) throws -> [OrderEntry] { try base.entries(request) }
    open func keys(in scope: OrderScope, _ bound: KeyBound, limit: Int) throws -> [OrderKey] { try base.keys(in: scope, bound, limit: limit) }
    open func count(_ request: CountRequest) throws -> Int { try base.count(request) }
    open func ranks(of keys: [OrderKey], in scope: OrderScope) throws -> EntryRanks { try base.ranks(of: keys, in: scope) }
    open func lists(_ request: ListRequest) throws -> [ItemList] { try base.lists(request) }
    open func areas(_ request: AreaRequest) throws -> [Area] { try base.areas(request) }
    open func headings(_ request: HeadingRequest) throws -> [Heading] { try base.headings(request) }
    open func tags(_ request: TagRequest) throws -> [Tag] { try base.tags(request) }
    open func tagMerges() throws -> [TagMerge] { try base.tagMerges() }
    open func checklistItems(_ request: ChecklistRequest) throws -> [ChecklistItem] { try base.checklistItems(request) }
    open func series(_ request: SeriesRequest) throws -> [Series] { try base.series(request) }
    open func value(of setting: StoreSetting) throws -> String? { try base.value(of: setting) }
    open func listShares() throws -> [ListShare] { try base.listShares() }

    // MARK: Writing

    open func apply(_ change: RowChange) throws { try base.apply(change) }
}
