public import ArrangeModel
public import Foundation

/// A store of lists and their items, read and changed in transactions.
///
/// Every read and write goes through `read` or `write`, so one logical operation (a move
/// plus the re-spread it needs, say) commits wholly or not at all. Each has an `async` twin
/// for callers in Swift concurrency, which never blocks a thread of the cooperative pool.
///
/// A backend implements five requirements: the two transactions, each with its `async`
/// twin, and ``values(of:)``. The observations callers use
/// (``observe(_:)``, ``observeItems(in:visibility:)``,
/// ``observeToday(visibility:)``, ``observeLists()``) are built on the last in an extension:
/// each makes a ``StoreObservation``, and a backend that signals the changes of its commits
/// applies the patch that the items' observations carry instead of reading again. Its
/// transactions implement the small cores of ``ItemReading`` and ``ItemWriting``, which say how
/// a backend keeps its fast paths.
///
/// ## Implementation requirements
/// Every backend passes the same conformance suite. In particular it must:
/// - order the entries of every `OrderScope` (the items of a list, the lists, Today, a checklist, the areas) by
///   `sortIndex`, then by `id` (`OrderKey`), everywhere;
/// - answer the neighbour and window queries (``ItemReading/keys(in:before:limit:)``,
///   ``ItemReading/keys(in:after:limit:)``) without scanning the ordering: their cost may
///   grow with `limit` and the logarithm of the ordering's length, not with the length;
/// - roll back every change of a write whose body throws, and rethrow the error;
/// - refuse a list name that another list has already, ignoring case
///   (`TitleError/duplicateListName(_:)`), and notes that take more than `Item/maximumNotesSize`
///   bytes, unless an update leaves them as they were (`TitleError/notesTooLarge(size:limit:)`);
/// - refuse an area name that another area has already, ignoring case (`TitleError/duplicateAreaName(_:)`);
/// - delete a list's items with the list, and an item's checklist and place in Today with the item;
/// - keep an area's lists when the area is deleted, moving them out of it with their keys;
/// - report its own failures as ``StoreError``, never as a type of the library behind it.
public protocol ItemRepository: Sendable {
    /// Runs `body` on a consistent snapshot of the store.
    ///
    /// - Throws: What `body` throws, or ``StoreError`` when the store cannot be read.
    func read<Result>(_ body: (any ItemReading) throws -> Result) throws -> Result

    /// Runs `body` in one transaction: it commits when `body` returns and rolls back when it throws.
    ///
    /// - Throws: What `body` throws (after rolling back), or ``StoreError``.
    func write<Result>(_ body: (any ItemWriting) throws -> Result) throws -> Result

    /// Runs `body` on a consistent snapshot of the store, off the cooperative thread pool.
    ///
    /// The `async` twin of the synchronous `read`: the body runs on a thread of the
    /// repository's own, so a long read never holds up other tasks.
    ///
    /// - Throws: What `body` throws, ``StoreError`` when the store cannot be read, or
    ///   `CancellationError` when the task is cancelled before the body starts.
    func read<R: Sendable>(_ body: @Sendable (any ItemReading) throws -> R) async throws -> R

    /// Runs `body` in one transaction, off the cooperative thread pool: it commits when
    /// `body` returns and rolls back when it throws.
    ///
    /// The `async` twin of the synchronous `write`, with the same transaction: while it
    /// waits for another writer, it suspends the task instead of blocking a thread of the pool.
    ///
    /// - Throws: What `body` throws (after rolling back), ``StoreError``, or
    ///   `CancellationError` when the task is cancelled before the body starts.
    func write<R: Sendable>(_ body: @Sendable (any ItemWriting) throws -> R) async throws -> R

    /// The values an observation reads: now, and again after every committed change that may
    /// alter them, yielded when they differ from the last one yielded.
    ///
    /// Everything ``observe(_:)`` says of its stream holds
    /// for this one. When the observation carries a patch (``StoreObservation``) and the backend
    /// signals the changes of its commits, it applies each commit's changes to the value it
    /// holds instead of reading again, and reads again only after a change it is not told whole.
    /// A backend that does not signal its changes reads again.
    ///
    /// - Parameter observation: What to read, and how to keep it up to date.
    func values<Value: Equatable & Sendable>(of observation: StoreObservation<Value>) -> AsyncThrowingStream<Value, any Error>
}

extension ItemRepository {
    /// Any value read from the store: now, and again after every committed change that may
    /// alter it, yielded when it differs from the last one yielded.
    ///
    /// ```swift
    /// let openCount = repository.observe { try $0.itemCount(in: groceries, visibility: .open) }
    /// for try await count in openCount {
    ///     show(count)
    /// }
    /// ```
    ///
    /// The stream yields the value at once. It notes what the read looks at, at the grain of an
    /// ordering (a list's items, Today, the lists, a list's counts), and reads again only after a
    /// commit that changed one of those: a change to another list costs it nothing. It yields
    /// the value read when it differs from the last one: a write that rolls back, or a change
    /// that leaves the value as it was, yields nothing. A consumer slower than the changes gets
    /// the newest value, not each one in between. It sees the commits of this repository at
    /// once; a repository on a database file also sees those of other connections and
    /// processes, within a short delay (see the backend).
    ///
    /// A read that fails is tried again, after 50 ms, 250 ms and 1 s. The observation ends
    /// when the consuming task is cancelled or the stream is released, and then releases what
    /// it holds; or when the read still fails, with its error (a ``StoreError`` for the store's own).
    ///
    /// - Parameter read: Reads the value, in a read transaction of its own each time, through
    ///   the queries of ``ItemReading``.
    /// - Complexity: A commit that changes what the read looks at costs one run of `read` and a
    ///   comparison; any other costs a comparison of the regions it changed.
    public func observe<Value: Equatable & Sendable>(_ read: @escaping @Sendable (any ItemReading) throws -> Value) -> AsyncThrowingStream<Value, any Error> {
        values(of: StoreObservation(read))
    }

    /// The items of a list seen under `visibility`, in display order: now, and again after
    /// every committed change that alters them.
    ///
    /// ```swift
    /// for try await items in repository.observeItems(in: list.id, visibility: .open) {
    ///     show(items)
    /// }
    /// ```
    ///
    /// It behaves as ``observe(_:)`` does: a change to another list costs it nothing. Both
    /// backends of this package keep the items up to date from each commit's changes, as the
    /// commit signals, and yield them with no read: a commit costs the observation the work
    /// of its changes, not of the list. They read the list again only after a change they are
    /// not told whole: another connection's commit, a deleted list, a commit of more than 64
    /// item changes. The default implementation reads the list again after each commit that
    /// changes it.
    ///
    /// - Parameters:
    ///   - list: The list to observe; an unknown or deleted list has no items.
    ///   - visibility: Which items to include.
    /// - Complexity: In the backends of this package, each commit that changes the list's items
    ///   costs, on the committing thread, O(log n) to find an item the change carries whole and
    ///   O(n) otherwise, and O(d) to move it d places; a change not told whole costs one read
    ///   of the whole list and a comparison.
    public func observeItems(in list: ItemList.ID, visibility: ItemVisibility) -> AsyncThrowingStream<[Item], any Error> {
        values(of: .items(of: .list(list), visibility: visibility))
    }

    /// The lists of the sidebar, open ones in ``ItemReading/lists()`` order, with how many items
    /// each holds (``ItemReading/listSummaries()``): now, and again after every committed change
    /// that alters them (a list added, renamed, moved, finished, reopened or deleted; an item
    /// added, deleted, completed, reopened or moved to another list).
    ///
    /// It behaves as ``observe(_:)`` does: a move within a list, or an edit of an item's
    /// title, costs it nothing.
    public func observeLists() -> AsyncThrowingStream<[ListSummary], any Error> {
        observe { try $0.listSummaries() }
    }

    /// Today on `day` as people see it (``TodayArrangement``): now, and again after every
    /// committed change that alters it. The to-dos of repeating series due by `day` that no
    /// device has made yet show as they will be made (``ItemReading/dueRepeats(on:)``): an
    /// observation writes nothing, and shows them made once a view that writes makes them.
    ///
    /// It reads Today again through ``observe(_:)`` after each commit that changes an item,
    /// the lists or their headings, which the order of the arrivals depends on. A view of
    /// today observes again when the day changes where the person is.
    public func observeToday(on day: Day, visibility: ItemVisibility) -> AsyncThrowingStream<TodayArrangement, any Error> {
        observe { try TodayArrangement(on: day, visibility: visibility, projectingRepeats: true, in: $0) }
    }

    /// The items with a key in Today's hand order seen under `visibility`, in that order: now,
    /// and again after every committed change that alters them. Today as people see it, with
    /// the items that arrived by their dates, is ``observeToday(on:visibility:)``.
    ///
    /// It behaves as ``observeItems(in:visibility:)`` does. Both backends of this package also
    /// read Today again for an item that comes into it by its key alone, which the change does
    /// not tell whole; and every item change, whichever its list, costs the observation a
    /// look at the items Today holds.
    public func observeToday(visibility: ItemVisibility) -> AsyncThrowingStream<[Item], any Error> {
        values(of: .items(of: .today, visibility: visibility))
    }

    /// The values `observation` reads, read through `notifier`'s loop and, when it carries a
    /// patch, kept up to date from the changes of each commit the notifier signals: how the
    /// backends of this package implement ``values(of:)``.
    ///
    /// - Parameters:
    ///   - observation: What to read, and how to keep it up to date.
    ///   - notifier: The repository's, which signals each of its commits with its changes.
    ///   - watcher: For a database that other connections write, what sees their commits.
    /// - Complexity: As ``observeItems(in:visibility:)`` says, for an observation with a patch.
    package func values<Value: Equatable & Sendable>(
        of observation: StoreObservation<Value>, through notifier: CommitNotifier, watching watcher: CommitWatcher? = nil
    ) -> AsyncThrowingStream<Value, any Error> {
        notifier.values(
            of: {
                var (value, regions) = try await self.readNotingRegions(observation.read)
                if let patch = observation.patch { regions.formUnion(patch.regions) }
                return (value, regions)
            },
            applying: observation.patch?.apply,
            watching: watcher)
    }
}

/// A list with its item counts, as the sidebar shows it, and as intents return it.
public struct ListSummary: Identifiable, Hashable, Sendable, Codable {
    /// The list's id.
    public var id: ItemList.ID
    /// The list's name.
    public var name: String
    /// When the list was created.
    public var createdAt: Date
    /// The list's key in the order of the lists of its area, or of none.
    public var sortIndex: Int64
    /// The list's area, or `nil` for none.
    public var area: Area.ID?
    /// How many items are not completed.
    public var openItems: Int
    /// How many items there are, completed ones included.
    public var totalItems: Int
    /// Whether the list is open, completed or canceled.
    public var status: ItemStatus
    /// When the list was completed or canceled, or `nil` while it is open.
    public var completedAt: Date?
    /// The ids of the tags set on the list itself: by id as the store describes the list, in
    /// the tags' order as intents do.
    public var tags: [Tag.ID]
    /// When the list went to the Trash, or `nil` while it is out of it.
    public var trashedAt: Date?
    /// The list's start date, or `nil` when it is anytime or someday.
    public var startDate: Day?
    /// Whether the list is put off to someday, out of the sidebar.
    public var someday: Bool
    /// Whether the list is in the evening of its start date.
    public var evening: Bool
    /// The day the list is due, or `nil` for none.
    public var deadline: Day?
    /// The list's notes; may be empty.
    public var notes: String
    /// How the list is shared with other people, as this device knows it; `nil` for a list of
    /// the user's own.
    public var share: ListShare?

    /// Describes `list` with its counts, and its share, if it has one.
    public init(_ list: ItemList, openItems: Int, totalItems: Int, share: ListShare? = nil) {
        id = list.id
        name = list.name
        createdAt = list.createdAt
        sortIndex = list.sortIndex
        area = list.area
        self.openItems = openItems
        self.totalItems = totalItems
        status = list.status
        completedAt = list.completedAt
        tags = list.tags.sorted()
        trashedAt = list.trashedAt
        startDate = list.when.startDate
        someday = list.when.isSomeday
        evening = list.when.isEvening
        deadline = list.deadline
        notes = list.notes
        self.share = share
    }

    /// When the list is meant to be worked on, from ``startDate``, ``someday`` and ``evening``.
    public var when: When { When(startDate: startDate, someday: someday, evening: evening) }

    private enum CodingKeys: String, CodingKey {
        case id, name, createdAt, sortIndex, area, openItems, totalItems, status, completedAt, tags, trashedAt, startDate, someday, evening, deadline, notes,
            share = "shared"
    }

    /// A share as a summary writes it: `{"owned", "owner", "role"}`, the list being the summary's.
    private struct SharedForm: Codable {
        var owned: Bool
        var owner: String
        var role: ListShare.Role
    }

    /// Reads the form ``encode(to:)`` writes; a summary without a status is of an open list,
    /// one without dates is anytime, with no deadline, one without notes has none, and one
    /// without a share is the user's own.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(ItemList.ID.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        sortIndex = try container.decode(Int64.self, forKey: .sortIndex)
        area = try container.decodeIfPresent(Area.ID.self, forKey: .area)
        openItems = try container.decode(Int.self, forKey: .openItems)
        totalItems = try container.decode(Int.self, forKey: .totalItems)
        status = try container.decodeIfPresent(ItemStatus.self, forKey: .status) ?? .open
        completedAt = try container.decodeIfPresent(Date.self, forKey: .completedAt)
        tags = try container.decodeIfPresent([Tag.ID].self, forKey: .tags) ?? []
        trashedAt = try container.decodeIfPresent(Date.self, forKey: .trashedAt)
        startDate = try container.decodeIfPresent(Day.self, forKey: .startDate)
        someday = try container.decodeIfPresent(Bool.self, forKey: .someday) ?? false
        evening = try container.decodeIfPresent(Bool.self, forKey: .evening) ?? false
        deadline = try container.decodeIfPresent(Day.self, forKey: .deadline)
        notes = try container.decodeIfPresent(String.self, forKey: .notes) ?? ""
        share = try container.decodeIfPresent(SharedForm.self, forKey: .share).map { [id] in
            ListShare(list: id, role: $0.role, owner: $0.owner, isOwned: $0.owned)
        }
    }

    /// Writes every field, `area`, `completedAt`, `trashedAt`, `startDate` and `deadline` as
    /// `null` when they are `nil`, so that a reader of the JSON sees each field whether or not
    /// it has a value; `shared`, `{"owned", "owner", "role"}`, only for a shared list.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(sortIndex, forKey: .sortIndex)
        try container.encode(area, forKey: .area)
        try container.encode(openItems, forKey: .openItems)
        try container.encode(totalItems, forKey: .totalItems)
        try container.encode(status, forKey: .status)
        try container.encode(completedAt, forKey: .completedAt)
        try container.encode(tags, forKey: .tags)
        try container.encode(trashedAt, forKey: .trashedAt)
        try container.encode(startDate, forKey: .startDate)
        try container.encode(someday, forKey: .someday)
        try container.encode(evening, forKey: .evening)
        try container.encode(deadline, forKey: .deadline)
        try container.encode(notes, forKey: .notes)
        try container.encodeIfPresent(share.map { SharedForm(owned: $0.isOwned, owner: $0.owner, role: $0.role) }, forKey: .share)
    }
}

/// Which items a query sees, in a list or in Today, and which entries of an ordering: among
/// the lists, `open` sees those of the sidebar, not the finished ones nor those in the Trash.
///
/// A view shows ``open`` items, or ``openAndCompleted`` ones; ``all`` is every entry the
/// ordering holds, those in the Trash too, for the reads that copy, count or repair an ordering whole.
public enum ItemVisibility: String, Hashable, Sendable, Codable, CaseIterable {
    /// Every item: open, completed or in the Trash itself (`Item.trashedAt`).
    case all
    /// Only items that are neither completed nor in the Trash.
    case open
    /// The items out of the Trash, open or completed: what a view shows with its completed items.
    case openAndCompleted

    /// Whether an item is seen under this visibility, by its own fields: an item under a
    /// heading, or of a list, in the Trash is seen as its ordering is.
    public func includes(_ item: Item) -> Bool {
        switch self {
        case .all: true
        case .open: !item.isCompleted && item.trashedAt == nil
        case .openAndCompleted: item.trashedAt == nil
        }
    }

    /// Whether an entry of an ordering is seen under this visibility.
    public func includes(_ entry: OrderEntry) -> Bool {
        switch self {
        case .all: true
        case .open: entry.isOpen && !entry.isTrashed
        case .openAndCompleted: !entry.isTrashed
        }
    }
}

/// What Today's order reads of an item: where it stands in its list, its dates and its key in
/// Today's hand order; not its title, notes or times.
public struct DatedStanding: TodayDated, Identifiable, Hashable, Sendable {
    /// The item's id.
    public var id: Item.ID
    /// Where the item stands in its list.
    public var standing: ItemStanding
    public var when: When
    public var deadline: Day?
    public var deadlineDismissed: Bool
    public var todayIndex: Int64?
    public var todayMark: TodayMark?

    /// Creates the standing from its parts.
    public init(
        id: Item.ID, standing: ItemStanding, when: When, deadline: Day?, deadlineDismissed: Bool, todayIndex: Int64?, todayMark: TodayMark? = nil
    ) {
        self.id = id
        self.standing = standing
        self.when = when
        self.deadline = deadline
        self.deadlineDismissed = deadlineDismissed
        self.todayIndex = todayIndex
        self.todayMark = todayMark
    }

    /// What Today's order reads of `item`.
    public init(_ item: Item) {
        self.init(
            id: item.id, standing: ItemStanding(item), when: item.when, deadline: item.deadline,
            deadlineDismissed: item.deadlineDismissed, todayIndex: item.todayIndex, todayMark: item.todayMark)
    }
}

/// Where an item stands: the list it is in, and its key there.
public struct ItemStanding: Hashable, Sendable {
    /// The item's list.
    public var list: ItemList.ID
    /// The heading the item is under, or `nil` for none.
    public var heading: Heading.ID?
    /// The item's key in its list, under its heading.
    public var key: OrderKey

    public init(list: ItemList.ID, heading: Heading.ID? = nil, key: OrderKey) {
        self.list = list
        self.heading = heading
        self.key = key
    }

    /// Where `item` stands.
    public init(_ item: Item) {
        self.init(list: item.listID, heading: item.heading, key: item.orderKey)
    }

    /// The ordering the item is in: its heading's items, or its list's under no heading.
    public var scope: OrderScope { heading.map(OrderScope.heading) ?? .items(list) }
}

/// Where some keys fall in an ordering, and what it holds (``ItemReading/ranks(of:in:)``).
public struct EntryRanks: Hashable, Sendable {
    /// For each key asked about, in the order asked: how many open entries out of the Trash
    /// come strictly before it, as ``ItemVisibility/open`` counts them.
    public var openBefore: [Int]
    /// How many entries are open and out of the Trash.
    public var openCount: Int
    /// How many entries are out of the Trash, open or completed.
    public var keptCount: Int

    public init(openBefore: [Int], openCount: Int, keptCount: Int) {
        self.openBefore = openBefore
        self.openCount = openCount
        self.keptCount = keptCount
    }
}

/// Where an item is placed: where it stands, its key in Today's hand order, and its stamp.
///
/// These are the columns that placing an item writes (a move, a re-spread of its neighbours,
/// putting it in Today or taking it out); sync keeps them, not the whole item, to take such a
/// write back.
public struct ItemPlace: Hashable, Sendable {
    /// Its list, heading and key there.
    public var standing: ItemStanding
    /// Its key in Today's hand order, or `nil` when it has none.
    public var todayIndex: Int64?
    /// When it last changed.
    public var updatedAt: Date

    public init(standing: ItemStanding, todayIndex: Int64?, updatedAt: Date) {
        self.standing = standing
        self.todayIndex = todayIndex
        self.updatedAt = updatedAt
    }

    /// Where `item` is placed.
    public init(_ item: Item) {
        self.init(standing: ItemStanding(item), todayIndex: item.todayIndex, updatedAt: item.updatedAt)
    }
}

/// The queries a transaction can answer.
///
/// Display reads hand out whole `Item`s and `ItemList`s. The ordering service reads
/// `OrderEntry`s instead, the same way in every `OrderScope`: an entry's id, key and
/// openness, which is all it needs to place something.
///
/// ## A small core, and the rest derived
/// A backend implements the few requirements below, one for each kind of row, each taking a
/// request value (``ItemRequest``, ``EntryRequest``, ``CountRequest``…) that describes the read:
/// a page of an ordering, the keys before a key, items by ids. Every other query, such as
/// ``item(id:)``, ``items(in:visibility:offset:limit:)``, ``keys(in:before:limit:)`` or
/// ``entryCount(in:visibility:)``, is built in an extension, once for every backend, on those
/// requests.
///
/// A method of a protocol extension is dispatched statically: a backend's method of the same
/// name is not what a call through `any ItemReading` runs. So a backend that has a faster way
/// to answer a query (a SQL statement for a page, a read of an index alone) does not restate
/// the derived method: it answers the request the derived method makes, in its `switch` over
/// the request, and hands the other cases to what it has. A transaction that stands in front
/// of another (``ForwardingTransaction``) forwards these requirements alone, and so every
/// query, fast paths included.
///
/// ## Implementation requirements
/// Besides what ``ItemRepository`` requires: every request is answered as its case describes,
/// with the ordering and the sections of a list as the derived queries say; a page with a
/// negative offset or a limit below 1 is empty.
public protocol ItemReading {
    /// The items a request describes, in the order it gives.
    ///
    /// - Complexity: For ids, O(k log n) for k ids, in one query on SQLite. For a page of a
    ///   list or of Today, O(offset + limit) on SQLite and O(log n + limit) in memory, with one
    ///   more read of the list's headings when the page goes past the items under no heading.
    ///   For the dated items, O(log n + m) searches on SQLite for the m items it reads, each
    ///   found from its entry in the indexes of the start dates and the deadlines; O(n) in
    ///   memory. For the Logbook, O(offset + limit) on SQLite, from its table of completions;
    ///   O(n log n) in memory. For an id prefix, O(log n + limit).
    func items(_ request: ItemRequest) throws -> [Item]

    /// Where an item stands: its list, its heading, and its key there; `nil` when there is no such item.
    ///
    /// This is all that placing something before or after the item needs, and it can be read
    /// for less than the whole item: on SQLite, from the index of the ids alone.
    func standing(ofItem id: Item.ID) throws -> ItemStanding?

    /// Where an item is placed: where it stands, its key in Today and its stamp; `nil` when
    /// there is no such item.
    ///
    /// Sync reads this of an item that an operation only places, to take the operation back.
    /// On SQLite it is read without the item's text, and by the table's own key when the
    /// transaction knows where the item stands.
    func place(ofItem id: Item.ID) throws -> ItemPlace?

    /// The open items whose start date, or deadline not dismissed, is on or before `day`, in
    /// no particular order: those Today holds by their dates on that day
    /// (`TodayDated.todaySection(on:)`), as Today's order reads them.
    ///
    /// - Complexity: O(log n + m) on SQLite for the m items it reads, from its indexes of the
    ///   start dates and the deadlines alone, which carry what it reads; O(n) in memory.
    func datedStandings(through day: Day) throws -> [DatedStanding]

    /// The entries of an ordering a request describes, in the ordering's order.
    ///
    /// - Complexity: For a page, O(offset + limit) on SQLite, O(log n + limit) in memory.
    func entries(_ request: EntryRequest) throws -> [OrderEntry]

    /// The keys of up to `limit` entries of the ordering on one side of a key, nearest first.
    ///
    /// With `limit: 1` this is the neighbour lookup; with a larger limit, one side of a
    /// window to re-spread. Only keys: a backend answers from the ordering's index alone,
    /// without scanning the ordering.
    ///
    /// - Parameters:
    ///   - scope: The ordering to read.
    ///   - bound: The key to read from, and on which side of it.
    ///   - limit: The most keys to return.
    /// - Complexity: O(log n + limit).
    func keys(in scope: OrderScope, _ bound: KeyBound, limit: Int) throws -> [OrderKey]

    /// How many rows a request counts.
    ///
    /// - Complexity: Before a key, O(log n) in memory; on SQLite, one `COUNT` over the range
    ///   of the order index before the key, so O(log n + the count). The completed items:
    ///   O(c) for c completed items on SQLite (a count of its table of completions); O(n) in memory.
    func count(_ request: CountRequest) throws -> Int

    /// Where some keys fall among the open entries of an ordering, and how many entries it
    /// holds out of the Trash: what a view that shows a few of an ordering's entries needs to
    /// number them as the whole ordering numbers them.
    ///
    /// - Parameters:
    ///   - keys: The keys to place; they need not be the keys of entries.
    ///   - scope: The ordering.
    /// - Returns: For each key, in the order given, how many open entries out of the Trash come
    ///   strictly before it; and the ordering's two counts.
    /// - Complexity: O(n) on SQLite, one pass over the ordering's index that reads an entry's
    ///   id only where its `sortIndex` is one of the keys'; O(k log n) in memory for k keys.
    func ranks(of keys: [OrderKey], in scope: OrderScope) throws -> EntryRanks

    /// The lists a request describes, in the sidebar's order.
    func lists(_ request: ListRequest) throws -> [ItemList]

    /// The areas a request describes, in their hand-made order.
    func areas(_ request: AreaRequest) throws -> [Area]

    /// The headings a request describes, in their hand-made order.
    func headings(_ request: HeadingRequest) throws -> [Heading]

    /// The tags a request describes, depth first in hand order.
    func tags(_ request: TagRequest) throws -> [Tag]

    /// Every id merged into another tag (``RowChange/mergeTag(_:into:)``), by id.
    func tagMerges() throws -> [TagMerge]

    /// The checklist entries a request describes, each checklist in its order.
    ///
    /// - Complexity: For the checklists of k items, O(k log n + e) for the e entries they hold.
    func checklistItems(_ request: ChecklistRequest) throws -> [ChecklistItem]

    /// The repeating series a request describes, oldest first.
    func series(_ request: SeriesRequest) throws -> [Series]

    /// The value the store keeps for `setting`, or `nil` when it keeps none.
    func value(of setting: StoreSetting) throws -> String?

    /// The lists shared with other people, as the device knows them (``RowChange/setListShare(_:of:)``), by list id.
    func listShares() throws -> [ListShare]
}

/// A value a store keeps for the device it is on, beside the lists: never synced, exported or
/// undone, and written with ``RowChange/setValue(_:of:)``.
public enum StoreSetting: String, Hashable, Sendable, CaseIterable {
    /// The SHA-256 digest, in lowercase hex, of the token that links which change the store
    /// must carry: the store keeps the digest alone, never the token.
    case linkTokenDigest = "link-token-digest"
    /// The lists this device shared with other people, and stated for them, by id, separated by
    /// spaces: what the user's other devices changed in one of them before they knew it was
    /// shared reaches this device alone, which states it again for the members.
    case listsSharedHere = "lists-shared-here"
}

/// The changes a write transaction can make, on top of its queries.
///
/// A backend implements one requirement, ``apply(_:)``, which takes every kind of write as a
/// ``RowChange``; the methods callers write with (`insert(_:)`, `update(_:)`,
/// `deleteItem(id:)`, ``setSortIndices(_:in:updatedAt:)``…) are built on it in an extension. A
/// transaction that watches what a body writes (``ForwardingTransaction``) overrides ``apply(_:)``
/// alone, and sees every write.
///
/// ## Implementation requirements
/// ``apply(_:)`` writes each change as the derived method that makes it documents, and throws
/// the errors it lists.
public protocol ItemWriting: ItemReading {
    /// Writes one change: a row inserted, updated or deleted, keys set in an ordering, items
    /// taken out of Today, the default list set.
    ///
    /// - Throws: ``StoreError`` when a row the change names, or needs, is not there or is
    ///   there already, and ``StoreError/validation(_:)`` for a name taken or notes too long,
    ///   as each derived method documents.
    func apply(_ change: RowChange) throws
}

extension ItemReading {
    /// All lists, in the sidebar's order: those in no area first, then each area's (in the
    /// order of the areas), each group in its hand-made order (`ItemList/orderKey`).
    public func lists() throws -> [ItemList] {
        try lists(.all)
    }

    /// The list with this id, or `nil`.
    public func list(id: ItemList.ID) throws -> ItemList? {
        try lists(.withID(id)).first
    }

    /// The id of the default list, the one a front end shows first, or `nil` when none is set.
    ///
    /// The store remembers it by id, so renaming the list keeps it the default; deleting the
    /// list clears it.
    public func defaultListID() throws -> ItemList.ID? {
        try lists(.defaultList).first?.id
    }

    /// All areas, in their hand-made order (`Area/orderKey`).
    public func areas() throws -> [Area] {
        try areas(.all)
    }

    /// The area with this id, or `nil`.
    public func area(id: Area.ID) throws -> Area? {
        try areas(.withID(id)).first
    }

    /// Every tag, depth first in hand order: each tag, then its children (`Tag/orderKey`).
    public func tags() throws -> [Tag] {
        try tags(.all)
    }

    /// The tag with this id, or `nil`.
    public func tag(id: Tag.ID) throws -> Tag? {
        try tags(.withID(id)).first
    }

    /// The headings of a list, in their hand-made order (`Heading/orderKey`); none for an unknown list.
    public func headings(in list: ItemList.ID) throws -> [Heading] {
        try headings(.inList(list))
    }

    /// The heading with this id, or `nil`.
    public func heading(id: Heading.ID) throws -> Heading? {
        try headings(.withID(id)).first
    }

    /// The item with this id, or `nil`.
    public func item(id: Item.ID) throws -> Item? {
        try items(.withIDs([id])).first
    }

    /// The items with these ids, in the order of `ids`; an id of no item is left out.
    ///
    /// - Complexity: O(k log n) for k ids, in one query on SQLite.
    public func items(withIDs ids: [Item.ID]) throws -> [Item] {
        try items(.withIDs(ids))
    }

    /// A page of a list in display order: the items under no heading, then those of each
    /// heading in the order of the headings; each group in its hand-made order (`sortIndex`, then `id`).
    ///
    /// - Parameters:
    ///   - list: The list to read.
    ///   - visibility: Which items count; `offset` counts only those.
    ///   - offset: How many visible items to skip.
    ///   - limit: The most items to return.
    /// - Complexity: O(offset + limit) on SQLite, O(log n + limit) in memory, with one more
    ///   read of the list's headings when the page goes past the items under no heading.
    public func items(in list: ItemList.ID, visibility: ItemVisibility, offset: Int, limit: Int) throws -> [Item] {
        try items(.list(list, visibility: visibility, offset: offset, limit: limit))
    }

    /// A page of Today in its order (`todayIndex`, then `id`), as ``items(in:visibility:offset:limit:)`` reads a list.
    public func todayItems(visibility: ItemVisibility, offset: Int, limit: Int) throws -> [Item] {
        try items(.today(visibility: visibility, offset: offset, limit: limit))
    }

    /// The items of ``datedStandings(through:)``, in full: for a read of the whole of Today.
    ///
    /// - Complexity: O(log n + m) searches on SQLite for the m items it reads, each found from
    ///   its entry in the indexes of the start dates and the deadlines; O(n) in memory.
    public func datedItems(through day: Day) throws -> [Item] {
        try items(.dated(through: day))
    }

    /// A page of the completed items of every list, the most recently completed first (then
    /// by id): the Logbook.
    ///
    /// - Parameters:
    ///   - offset: How many of the most recently completed items to pass over; a negative offset reads nothing.
    ///   - limit: The most items to return; below 1 reads nothing.
    /// - Complexity: O(offset + limit) on SQLite, from its table of completions; O(n log n) in memory.
    public func completedItems(offset: Int, limit: Int) throws -> [Item] {
        try items(.completed(offset: offset, limit: limit))
    }

    /// How many items are completed, of every list.
    ///
    /// - Complexity: O(c) for c completed items on SQLite (a count of its table of completions); O(n) in memory.
    public func completedItemCount() throws -> Int {
        try count(.completedItems)
    }

    /// Up to `limit` items, of any list, whose ids begin with these hex digits, in id order.
    ///
    /// This is how a person names an item by the start of its id (`3f2a`).
    ///
    /// - Parameters:
    ///   - hexDigits: 1 to 32 hex digits, without dashes; anything else matches nothing.
    ///   - limit: The most items to return.
    /// - Complexity: O(log n + limit).
    public func items(withIDPrefix hexDigits: String, limit: Int) throws -> [Item] {
        try items(.withIDPrefix(hexDigits, limit: limit))
    }

    /// The entry with this id in `scope`, or `nil` when there is none: no such item or list,
    /// an item of another list, an item not in Today.
    public func entry(id: OrderEntry.ID, in scope: OrderScope) throws -> OrderEntry? {
        try entries(.withID(id, in: scope)).first
    }

    /// A page of an ordering: `offset` entries seen under `visibility` skipped, then up to `limit`.
    ///
    /// - Complexity: O(offset + limit) on SQLite, O(log n + limit) in memory.
    public func entries(in scope: OrderScope, visibility: ItemVisibility, offset: Int, limit: Int) throws -> [OrderEntry] {
        try entries(.page(scope, visibility: visibility, offset: offset, limit: limit))
    }

    /// The groups of two or more entries of the ordering that share one `sortIndex`, in order.
    public func entriesSharingSortIndex(in scope: OrderScope) throws -> [[OrderEntry]] {
        try entries(.sharingSortIndex(scope)).chunked { $0.sortIndex == $1.sortIndex }
    }

    /// How many entries of the ordering are seen under `visibility`.
    public func entryCount(in scope: OrderScope, visibility: ItemVisibility) throws -> Int {
        try count(.entries(scope, visibility: visibility))
    }

    /// How many entries of the ordering seen under `visibility` come strictly before `key`:
    /// the 0-based offset, among those entries, of the entry whose key is `key`.
    ///
    /// ```swift
    /// // Keys 10, 20 (completed), 30:
    /// try store.entryCount(in: .items(list), visibility: .all, before: item30.orderKey)   // 2
    /// try store.entryCount(in: .items(list), visibility: .open, before: item30.orderKey)  // 1
    /// ```
    ///
    /// - Parameters:
    ///   - scope: The ordering to count in.
    ///   - visibility: Which entries count.
    ///   - key: The position to count up to; it need not be the key of an entry.
    /// - Complexity: O(log n) in memory; on SQLite, one `COUNT` over the range of the order
    ///   index before `key`, so O(log n + the count).
    public func entryCount(in scope: OrderScope, visibility: ItemVisibility, before key: OrderKey) throws -> Int {
        try count(.entriesBefore(key, in: scope, visibility: visibility))
    }

    /// The keys of up to `limit` entries of the ordering strictly before `key`, nearest first.
    ///
    /// With `limit: 1` this is the neighbour lookup; with a larger limit, one side of a
    /// window to re-spread.
    /// - Complexity: O(log n + limit).
    public func keys(in scope: OrderScope, before key: OrderKey, limit: Int) throws -> [OrderKey] {
        try keys(in: scope, .before(key), limit: limit)
    }

    /// The keys of up to `limit` entries of the ordering strictly after `key`, nearest first.
    ///
    /// - Complexity: O(log n + limit).
    public func keys(in scope: OrderScope, after key: OrderKey, limit: Int) throws -> [OrderKey] {
        try keys(in: scope, .after(key), limit: limit)
    }

    /// The checklists of `items`, each in its order (`sortIndex`, then `id`), by item: an item
    /// without entries, or an id of no item, is not in the answer.
    ///
    /// - Complexity: O(k log n + e) for k items and the e entries of their checklists.
    public func checklists(of items: [Item.ID]) throws -> [Item.ID: [ChecklistItem]] {
        Dictionary(grouping: try checklistItems(.ofItems(items)), by: \.itemID)
    }

    /// The checklist entry with this id, or `nil`.
    public func checklistItem(id: ChecklistItem.ID) throws -> ChecklistItem? {
        try checklistItems(.withID(id)).first
    }

    /// Every repeating series, oldest first.
    public func allSeries() throws -> [Series] {
        try series(.all)
    }

    /// The repeating series with this id, or `nil`.
    public func series(id: Series.ID) throws -> Series? {
        try series(.withID(id)).first
    }

    /// The to-dos of fixed repeating series due by `day` that no device has made yet, each as
    /// it will be made (`Series/dueDate(on:)`), under the id it will have
    /// (`Series/itemID(on:)`): what a view that cannot write shows in their place, a read-only
    /// store's or an observation's. A view that can write makes them instead.
    ///
    /// - Complexity: One read of the series, and O(d) for the d dates of their rules through `day`.
    public func dueRepeats(on day: Day) throws -> [Item] {
        try allSeries().compactMap { series in
            guard let date = series.dueDate(on: day) else { return nil }
            var item = series.template(on: date)
            item.id = series.itemID(on: date)
            return item
        }
    }
}

extension ItemWriting {
    /// Adds a list, to its area (or to none), at its `ItemList/sortIndex`.
    ///
    /// - Throws: ``StoreError/duplicateList(_:)`` when its id is taken, then
    ///   ``StoreError/validation(_:)`` with `TitleError/duplicateListName(_:)`
    ///   when another list has the same name ignoring case; ``StoreError/areaNotFound(_:)``
    ///   when its area does not exist.
    public func insert(_ list: ItemList) throws {
        try apply(.insert(.list(list)))
    }

    /// Saves a changed list: its name, its area and its `sortIndex`.
    ///
    /// - Throws: ``StoreError/listNotFound(_:)``, or a duplicate name or an unknown area as for ``insert(_:)-(ItemList)``.
    public func update(_ list: ItemList) throws {
        try apply(.update(.list(list)))
    }

    /// Deletes a list and all of its items.
    ///
    /// - Throws: ``StoreError/listNotFound(_:)``.
    public func deleteList(id: ItemList.ID) throws {
        try apply(.delete(.list(id)))
    }

    /// Adds an area, at its `Area/sortIndex`.
    ///
    /// - Throws: ``StoreError/duplicateArea(_:)`` when its id is taken, then
    ///   ``StoreError/validation(_:)`` with `TitleError/duplicateAreaName(_:)` when another area
    ///   has the same name ignoring case.
    public func insert(_ area: Area) throws {
        try apply(.insert(.area(area)))
    }

    /// Saves a changed area: its name and its `sortIndex`.
    ///
    /// - Throws: ``StoreError/areaNotFound(_:)``, or a duplicate name as for ``insert(_:)-(Area)``.
    public func update(_ area: Area) throws {
        try apply(.update(.area(area)))
    }

    /// Adds a tag, among the children of its parent (or at the top level), at its `Tag/sortIndex`.
    ///
    /// - Throws: ``StoreError/duplicateTag(_:)`` when its id is taken, then
    ///   ``StoreError/validation(_:)`` with `TitleError/duplicateTagName(_:)` when another tag
    ///   has the same name ignoring case; ``StoreError/tagNotFound(_:)`` when its parent does not exist.
    public func insert(_ tag: Tag) throws {
        try apply(.insert(.tag(tag)))
    }

    /// Saves a changed tag: its name, its parent, its shortcut and its `sortIndex`.
    ///
    /// - Throws: ``StoreError/tagNotFound(_:)``, or a duplicate name or an unknown parent as for ``insert(_:)-(Tag)``.
    public func update(_ tag: Tag) throws {
        try apply(.update(.tag(tag)))
    }

    /// Deletes a tag with its children, and theirs.
    ///
    /// - Throws: ``StoreError/tagNotFound(_:)``.
    public func deleteTag(id: Tag.ID) throws {
        try apply(.delete(.tag(id)))
    }

    /// Makes `id` stand for the tag `survivor` from now on (``RowChange/mergeTag(_:into:)``).
    public func mergeTag(_ id: Tag.ID, into survivor: Tag.ID) throws {
        try apply(.mergeTag(id, into: survivor))
    }

    /// Deletes an area. Its lists stay, out of any area, with the keys they had in it: a
    /// caller that wants them in a given place among the lists in no area moves them first.
    ///
    /// - Throws: ``StoreError/areaNotFound(_:)``.
    public func deleteArea(id: Area.ID) throws {
        try apply(.delete(.area(id)))
    }

    /// Adds a heading to its list, at its `Heading/sortIndex` among the list's headings.
    ///
    /// - Throws: ``StoreError/duplicateHeading(_:)`` when its id is taken,
    ///   ``StoreError/listNotFound(_:)`` when its list does not exist.
    public func insert(_ heading: Heading) throws {
        try apply(.insert(.heading(heading)))
    }

    /// Saves a changed heading: its title, its `sortIndex`, and its list. A heading that moves
    /// to another list takes the items under it along, with their keys.
    ///
    /// - Throws: ``StoreError/headingNotFound(_:)``, ``StoreError/listNotFound(_:)``.
    public func update(_ heading: Heading) throws {
        try apply(.update(.heading(heading)))
    }

    /// Deletes a heading and the items under it, with their checklists.
    ///
    /// - Throws: ``StoreError/headingNotFound(_:)``.
    public func deleteHeading(id: Heading.ID) throws {
        try apply(.delete(.heading(id)))
    }

    /// Adds an item, to its list (under its heading, if any) and, with a `todayIndex`, to Today.
    ///
    /// - Throws: ``StoreError/listNotFound(_:)`` when its list does not exist,
    ///   ``StoreError/headingNotFound(_:)`` when its heading does not exist or is of another
    ///   list, ``StoreError/duplicateItem(_:)`` when its id is taken.
    public func insert(_ item: Item) throws {
        try apply(.insert(.item(item)))
    }

    /// Saves a changed item: any field, its list, heading, `sortIndex` and `todayIndex` included.
    ///
    /// - Throws: ``StoreError/itemNotFound(_:)``, ``StoreError/listNotFound(_:)``,
    ///   ``StoreError/headingNotFound(_:)`` as for ``insert(_:)-(Item)``.
    public func update(_ item: Item) throws {
        try apply(.update(.item(item)))
    }

    /// Deletes an item, from its list and from Today, with its checklist.
    ///
    /// - Throws: ``StoreError/itemNotFound(_:)``.
    public func deleteItem(id: Item.ID) throws {
        try apply(.delete(.item(id)))
    }

    /// Adds an entry to its item's checklist, at its `ChecklistItem.sortIndex`.
    ///
    /// - Throws: ``StoreError/itemNotFound(_:)`` when its item does not exist,
    ///   ``StoreError/duplicateChecklistItem(_:)`` when its id is taken.
    public func insert(_ entry: ChecklistItem) throws {
        try apply(.insert(.checklistItem(entry)))
    }

    /// Saves a changed checklist entry: its title, its `sortIndex`, its completion.
    ///
    /// - Throws: ``StoreError/checklistItemNotFound(_:)``, or ``StoreError/itemNotFound(_:)``
    ///   when it names an item that does not exist.
    public func update(_ entry: ChecklistItem) throws {
        try apply(.update(.checklistItem(entry)))
    }

    /// Deletes a checklist entry.
    ///
    /// - Throws: ``StoreError/checklistItemNotFound(_:)``.
    public func deleteChecklistItem(id: ChecklistItem.ID) throws {
        try apply(.delete(.checklistItem(id)))
    }

    /// Adds a repeating series.
    ///
    /// - Throws: ``StoreError/duplicateSeries(_:)`` when its id is taken.
    public func insert(_ series: Series) throws {
        try apply(.insert(.series(series)))
    }

    /// Saves a changed repeating series, any of its fields.
    ///
    /// - Throws: ``StoreError/seriesNotFound(_:)``.
    public func update(_ series: Series) throws {
        try apply(.update(.series(series)))
    }

    /// Deletes a repeating series. The to-dos made from it stay, and keep its id.
    ///
    /// - Throws: ``StoreError/seriesNotFound(_:)``.
    public func deleteSeries(id: Series.ID) throws {
        try apply(.delete(.series(id)))
    }

    /// Gives several entries new keys in an ordering, and puts those that are not in it yet
    /// into it, leaving every other field as it is.
    ///
    /// In `OrderScope/items(_:)` an item of another list, or under a heading, moves into that
    /// list under no heading; in `OrderScope/heading(_:)` an item moves under that heading, into
    /// its list; in `OrderScope/today` an item joins Today. The items written are stamped `updatedAt`. In
    /// `OrderScope/checklist(_:)` every entry must be of that item's checklist already. In
    /// `OrderScope/lists` and `OrderScope/area(_:)` a list of another area (or of none) moves
    /// into that one. In `OrderScope/headings(_:)` a heading of another list moves into that
    /// list, with the items under it.
    ///
    /// - Parameters:
    ///   - changes: The new keys, at most one for each entry.
    ///   - scope: The ordering the keys belong to.
    ///   - updatedAt: The moment of the change, stamped on every item it writes.
    /// - Throws: ``StoreError/itemNotFound(_:)``, ``StoreError/listNotFound(_:)``,
    ///   ``StoreError/checklistItemNotFound(_:)``, ``StoreError/areaNotFound(_:)`` or
    ///   ``StoreError/headingNotFound(_:)`` when an id is unknown, or when the list of an items
    ///   scope, the area of an area's lists, or the heading of a heading's items, is;
    ///   ``StoreError/checklistItemNotFound(_:)`` for an entry of another checklist.
    /// - Complexity: O(k log n) for k changes.
    public func setSortIndices(_ changes: [SortIndexChange], in scope: OrderScope, updatedAt: Date) throws {
        try apply(.setSortIndices(changes, in: scope, updatedAt: updatedAt))
    }

    /// Takes items out of Today, leaving their place in their list as it is.
    ///
    /// - Throws: ``StoreError/itemNotFound(_:)`` when an id is unknown.
    public func removeFromToday(_ ids: [Item.ID], updatedAt: Date) throws {
        try apply(.removeFromToday(ids, updatedAt: updatedAt))
    }

    /// Makes a list the default list (``ItemReading/defaultListID()``), in place of any other.
    ///
    /// - Throws: ``StoreError/listNotFound(_:)`` when no list has this id.
    public func setDefaultListID(_ id: ItemList.ID) throws {
        try apply(.setDefaultList(id))
    }
}

/// A new `sortIndex` for one entry of an ordering.
public struct SortIndexChange: Hashable, Sendable {
    /// The item or list whose key changes.
    public var id: OrderEntry.ID
    /// Its new key.
    public var sortIndex: Int64

    /// A new key `sortIndex` for the entry `id`.
    public init(id: OrderEntry.ID, sortIndex: Int64) {
        self.id = id
        self.sortIndex = sortIndex
    }
}

extension ItemReading {
    /// Reads the item, for a backend that has no cheaper way to tell where it stands.
    public func standing(ofItem id: Item.ID) throws -> ItemStanding? {
        try item(id: id).map(ItemStanding.init)
    }

    /// Reads the item, for a backend that has no cheaper way to tell where it is placed.
    public func place(ofItem id: Item.ID) throws -> ItemPlace? {
        try item(id: id).map(ItemPlace.init)
    }

    /// How many items of the list are seen under `visibility`, under its headings or none.
    ///
    /// - Complexity: One count for each of the list's sections (``sections(of:visibility:)``).
    public func itemCount(in list: ItemList.ID, visibility: ItemVisibility) throws -> Int {
        try sections(of: list, visibility: visibility).reduce(0) { $0 + (try entryCount(in: $1, visibility: visibility)) }
    }

    /// How many of the items seen under `visibility` come before an item of `list` in the list's
    /// display order: those of the sections before its own (``sections(of:visibility:)``), and those
    /// before its key in its own (`section`, under its heading or none).
    ///
    /// - Complexity: One count for the item's section; a count of each section before it, and a
    ///   read of the list's headings, for an item under a heading.
    public func itemCount(in list: ItemList.ID, section: OrderScope, visibility: ItemVisibility, before key: OrderKey) throws -> Int {
        var count = try entryCount(in: section, visibility: visibility, before: key)
        guard section != .items(list) else { return count }
        for earlier in try sections(of: list, visibility: visibility).prefix(while: { $0 != section }) {
            count += try entryCount(in: earlier, visibility: visibility)
        }
        return count
    }

    /// The orderings a list's items are in, in display order: the items under no heading, then
    /// each heading's, in the order of the headings.
    ///
    /// - Parameters:
    ///   - list: The list.
    ///   - visibility: Which headings count: under ``ItemVisibility/all`` every one, else those
    ///     out of the Trash, whose items a view shows.
    public func sections(of list: ItemList.ID, visibility: ItemVisibility = .all) throws -> [OrderScope] {
        [.items(list)] + (try headings(in: list, visibility: visibility)).map { .heading($0.id) }
    }

    /// The headings of a list seen under `visibility`, in their hand-made order: under
    /// ``ItemVisibility/all`` every one, else those out of the Trash.
    public func headings(in list: ItemList.ID, visibility: ItemVisibility) throws -> [Heading] {
        let headings = try headings(in: list)
        return visibility == .all ? headings : headings.filter { $0.trashedAt == nil }
    }

    /// The heading with this id.
    ///
    /// - Throws: ``StoreError/headingNotFound(_:)`` when there is none.
    public func existingHeading(id: Heading.ID) throws -> Heading {
        guard let heading = try heading(id: id) else { throw StoreError.headingNotFound(id) }
        return heading
    }

    /// A page of a list's items in display order, read section by section with `page`, which
    /// reads a page of one section: how backends answer ``items(in:visibility:offset:limit:)``.
    ///
    /// The headings are read only when the page goes past the items under no heading, and a
    /// section is counted only when the page starts past its end.
    package func itemsBySection(
        in list: ItemList.ID, visibility: ItemVisibility, offset: Int, limit: Int,
        page: (_ section: OrderScope, _ offset: Int, _ limit: Int) throws -> [Item]
    ) throws -> [Item] {
        guard offset >= 0, limit > 0 else { return [] }
        var items = try page(.items(list), offset, limit)
        guard items.count < limit else { return items }
        var skipping = items.isEmpty && offset > 0 ? offset - (try entryCount(in: .items(list), visibility: visibility)) : 0
        for heading in try headings(in: list, visibility: visibility) {
            let section = OrderScope.heading(heading.id)
            let found = try page(section, skipping, limit - items.count)
            items += found
            guard items.count < limit else { break }
            skipping = found.isEmpty && skipping > 0 ? skipping - (try entryCount(in: section, visibility: visibility)) : 0
        }
        return items
    }

    /// The lists of the sidebar, open ones in ``lists()`` order, with how many items each holds:
    /// a finished list is in the Logbook instead, and one in the Trash is in the Trash.
    ///
    /// - Complexity: Two counts of each open list's items.
    public func listSummaries() throws -> [ListSummary] {
        let shares = try sharesByList()
        return try lists().filter(\.isInSidebar).map { try summary(of: $0, share: shares[$0.id]) }
    }

    /// A list with how many items it holds out of the Trash, and its share.
    ///
    /// - Complexity: Two counts of the list's items.
    public func summary(of list: ItemList) throws -> ListSummary {
        try summary(of: list, share: try sharesByList()[list.id])
    }

    private func summary(of list: ItemList, share: ListShare?) throws -> ListSummary {
        ListSummary(
            list, openItems: try itemCount(in: list.id, visibility: .open), totalItems: try itemCount(in: list.id, visibility: .openAndCompleted),
            share: share)
    }

    /// How `list` is shared with other people, as the device knows it; `nil` for a list of the user's own.
    public func share(of list: ItemList.ID) throws -> ListShare? {
        try sharesByList()[list]
    }

    private func sharesByList() throws -> [ItemList.ID: ListShare] {
        Dictionary(try listShares().map { ($0.list, $0) }, uniquingKeysWith: { $1 })
    }

    /// The list with this id.
    ///
    /// - Throws: ``StoreError/listNotFound(_:)`` when there is none.
    public func existingList(id: ItemList.ID) throws -> ItemList {
        guard let list = try list(id: id) else { throw StoreError.listNotFound(id) }
        return list
    }

    /// The area with this id.
    ///
    /// - Throws: ``StoreError/areaNotFound(_:)`` when there is none.
    public func existingArea(id: Area.ID) throws -> Area {
        guard let area = try area(id: id) else { throw StoreError.areaNotFound(id) }
        return area
    }

    /// The tag with this id.
    ///
    /// - Throws: ``StoreError/tagNotFound(_:)`` when there is none.
    public func existingTag(id: Tag.ID) throws -> Tag {
        guard let tag = try tag(id: id) else { throw StoreError.tagNotFound(id) }
        return tag
    }

    /// Throws when a tag other than `excluded` already has `name`, ignoring case.
    ///
    /// Backends call this before they insert or rename a tag.
    public func ensureTagNameIsFree(_ name: String, except excluded: Tag.ID? = nil) throws {
        let key = Tag.nameKey(name)
        if let other = try tags().first(where: { $0.id != excluded && Tag.nameKey($0.name) == key }) {
            throw StoreError.validation(.duplicateTagName(other.name))
        }
    }

    /// Throws when an area other than `excluded` already has `name`, ignoring case.
    ///
    /// Backends call this before they insert or rename an area.
    public func ensureAreaNameIsFree(_ name: String, except excluded: Area.ID? = nil) throws {
        let key = ItemList.nameKey(name)
        if let other = try areas().first(where: { $0.id != excluded && ItemList.nameKey($0.name) == key }) {
            throw StoreError.validation(.duplicateAreaName(other.name))
        }
    }

    /// The entries of the checklist of `item`, in their order; none for an unknown item.
    public func checklist(of item: Item.ID) throws -> [ChecklistItem] {
        try checklists(of: [item])[item] ?? []
    }

    /// The checklist entry with this id.
    ///
    /// - Throws: ``StoreError/checklistItemNotFound(_:)`` when there is none.
    public func existingChecklistItem(id: ChecklistItem.ID) throws -> ChecklistItem {
        guard let entry = try checklistItem(id: id) else { throw StoreError.checklistItemNotFound(id) }
        return entry
    }

    /// The item with this id.
    ///
    /// - Throws: ``StoreError/itemNotFound(_:)`` when there is none.
    public func existingItem(id: Item.ID) throws -> Item {
        guard let item = try item(id: id) else { throw StoreError.itemNotFound(id) }
        return item
    }

    /// Where the item with this id stands.
    ///
    /// - Throws: ``StoreError/itemNotFound(_:)`` when there is none.
    public func existingStanding(ofItem id: Item.ID) throws -> ItemStanding {
        guard let standing = try standing(ofItem: id) else { throw StoreError.itemNotFound(id) }
        return standing
    }

    /// Throws when an item's notes take more than `Item.maximumNotesSize` bytes, unless they are
    /// the notes it had (`old`): an item written before the limit keeps its notes.
    ///
    /// Backends call this before they insert or update an item.
    public func ensureNotesFit(_ item: Item, replacing old: Item? = nil) throws(StoreError) {
        guard item.notes != old?.notes else { return }
        do {
            try Item.validateNotes(item.notes)
        } catch {
            throw .validation(error)
        }
    }

    /// Throws when a list other than `excluded` already has `name`, ignoring case.
    ///
    /// Backends call this before they insert or rename a list.
    public func ensureListNameIsFree(_ name: String, except excluded: ItemList.ID? = nil) throws {
        let key = ItemList.nameKey(name)
        if let other = try lists().first(where: { $0.id != excluded && ItemList.nameKey($0.name) == key }) {
            throw StoreError.validation(.duplicateListName(other.name))
        }
    }
}

extension Identifier {
    /// The smallest identifier (all zero bits).
    public static var lowest: Self { Self(rawValue: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))) }

    /// The largest identifier (all one bits).
    public static var highest: Self {
        Self(rawValue: UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)))
    }
}

extension OrderKey {
    /// A key before every item's.
    public static var beforeAll: Self { Self(sortIndex: .min, id: .lowest) }
    /// A key after every item's.
    public static var afterAll: Self { Self(sortIndex: .max, id: .highest) }
}
