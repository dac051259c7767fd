import ArrangeModel

/// What an observation of a store reads, and, when it can, how it keeps the value it holds up
/// to date from the changes of a commit instead of reading again.
///
/// ``ItemRepository/values(of:)`` takes one; ``ItemRepository/observe(_:)``,
/// ``ItemRepository/observeItems(in:visibility:)`` and ``ItemRepository/observeToday(visibility:)`` make theirs.
public struct StoreObservation<Value: Equatable & Sendable>: Sendable {
    /// Reads the value, in a read transaction of its own each time, through the queries of ``ItemReading``.
    public let read: @Sendable (any ItemReading) throws -> Value

    /// How to apply a commit's changes to the value held, for a backend that signals them;
    /// `nil` when the value is read again after each commit that changes what it looks at.
    package let patch: Patch?

    /// An observation that reads the value again after each commit that changes what `read` looks at.
    public init(_ read: @escaping @Sendable (any ItemReading) throws -> Value) {
        self.read = read
        patch = nil
    }

    private init(read: @escaping @Sendable (any ItemReading) throws -> Value, patch: Patch) {
        self.read = read
        self.patch = patch
    }

    /// How an observation applies a commit's changes to the value it holds.
    package struct Patch: Sendable {
        /// The regions whose changes it must see, besides those its read looked at.
        package let regions: StoreRegions
        /// Applies the changes of a commit to the value.
        package let apply: @Sendable (inout Value, StoreChanges) -> ChangeApplication
    }
}

extension StoreObservation where Value == [Item] {
    /// The items of `ordering` seen under `visibility`, kept up to date from the changes of each
    /// commit that tells them whole.
    package static func items(of ordering: ItemOrdering, visibility: ItemVisibility) -> Self {
        let patch = OrderedItemsPatch(ordering: ordering, visibility: visibility)
        return Self(
            read: { try ordering.items(visibility: visibility, in: $0) },
            patch: Patch(regions: patch.regions, apply: { items, changes in patch.apply(changes, to: &items) }))
    }
}
