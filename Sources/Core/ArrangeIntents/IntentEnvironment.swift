public import ArrangeModel
public import ArrangeOrdering
public import ArrangeStore
public import Foundation

/// What intents run against: the store, the ordering service, a clock, an id source, and the
/// undo and redo history of one session.
///
/// An app keeps one environment for as long as its window is open, and a front end that runs
/// several intents in one session keeps one for the session, so ``Undo`` and ``Redo`` work
/// across its intents. The intents that write take turns, in the order they were performed:
/// each reads the history, writes and records its step before the next begins, so that two
/// ``Undo``s performed together undo two steps, newest first. Intents that only read run at once.
public final class IntentEnvironment: Sendable {
    /// Places and moves items; its repository is ``repository``.
    public let ordering: OrderingService
    /// The clock that stamps new, completed and changed items.
    public let clock: @Sendable () -> Date
    /// Where the person is: it says which day it is by ``clock``, for the views that depend on
    /// the day (``ShowUpcoming``, ``ShowAnytime``) when they are not given one.
    public let timeZone: TimeZone
    /// The source of new ids for items and lists.
    public let newID: @Sendable () -> UUID
    /// The name the default list gets when the store has none and one is created.
    public let defaultListName: String
    /// The most steps ``Undo`` can go back; 0 keeps no history at all, so that intents do
    /// not even read what undoing them would need.
    public let historyLimit: Int
    /// Logs every change an intent makes, in the intent's transaction: sync's engine, for an
    /// environment whose store syncs; `nil` logs nothing.
    ///
    /// A store that syncs refuses a change that is not logged (`StoreError.unloggedChange`),
    /// since it would never reach the other devices: open an environment on it with its sync
    /// engine to change it. Reading needs none.
    public let sync: (any ChangeLog)?

    private let history: Locked<History>
    /// The turns of the intents that write: one at a time, in the order they came.
    private let writeTurns = WriteTurns()

    /// The store intents read and write.
    public var repository: any ItemRepository { ordering.repository }

    /// Creates an environment around an ordering service.
    ///
    /// - Parameters:
    ///   - ordering: The service that places items; intents use its repository.
    ///   - defaultListName: The name of the default list, should the store need one created.
    ///   - historyLimit: The most steps undo can go back; 0 records none.
    ///   - clock: Stamps `createdAt`, `updatedAt` and `completedAt`. Give the ordering service the same clock.
    ///   - timeZone: Where the person is, which says which day it is; the device's by default.
    ///   - newID: Makes the ids of new items and lists.
    ///   - sync: Logs every change, for sync; `nil` logs nothing.
    public init(
        ordering: OrderingService,
        defaultListName: String = "Inbox",
        historyLimit: Int = 500,
        clock: @escaping @Sendable () -> Date = Date.init,
        timeZone: TimeZone = .current,
        newID: @escaping @Sendable () -> UUID = UUID.random,
        sync: (any ChangeLog)? = nil
    ) {
        self.ordering = ordering
        self.sync = sync
        self.defaultListName = defaultListName
        self.historyLimit = max(0, historyLimit)
        self.clock = clock
        self.timeZone = timeZone
        self.newID = newID
        self.history = Locked(History())
    }

    /// Creates an environment and its ordering service over a repository.
    ///
    /// ```swift
    /// let environment = try IntentEnvironment(repository: try SQLiteItemRepository(writer: pool))
    /// ```
    ///
    /// - Throws: `OrderingConfiguration.Problem` when `configuration` cannot work.
    public convenience init(
        repository: any ItemRepository,
        configuration: OrderingConfiguration = OrderingConfiguration(),
        random: some RandomNumberGenerator & Sendable = SystemRandomNumberGenerator(),
        defaultListName: String = "Inbox",
        historyLimit: Int = 500,
        clock: @escaping @Sendable () -> Date = Date.init,
        timeZone: TimeZone = .current,
        newID: @escaping @Sendable () -> UUID = UUID.random,
        sync: (any ChangeLog)? = nil
    ) throws(OrderingConfiguration.Problem) {
        let ordering = try OrderingService(repository: repository, configuration: configuration, random: random, now: clock)
        self.init(
            ordering: ordering, defaultListName: defaultListName, historyLimit: historyLimit, clock: clock, timeZone: timeZone, newID: newID,
            sync: sync)
    }

    // MARK: Running intents

    /// Runs an intent in one transaction and records how to undo it.
    ///
    /// - Returns: The result, and the step recorded in the history, if any.
    /// - Throws: What the intent throws; nothing is written then, and the history stays as it was.
    public func perform<Intent: ArrangeIntent>(_ intent: Intent) async throws -> Performed<Intent.Result> {
        try await perform(readOnly: intent.isReadOnly) { _ in intent }
    }

    /// Builds an intent inside the transaction that runs it, then runs it.
    ///
    /// A front end that names items by something only the store can resolve (a position in a
    /// list, the start of an id) resolves it in `makeIntent`, so that the intent acts on exactly
    /// what was resolved: no other writer can come in between.
    ///
    /// - Parameters:
    ///   - readOnly: Whether the intent only reads; it then runs in a read transaction.
    ///   - makeIntent: Reads what it needs from the transaction and returns the intent to run.
    /// - Throws: What `makeIntent` or the intent throws; nothing is written then.
    public func perform<Intent: ArrangeIntent>(
        readOnly: Bool = false, _ makeIntent: @escaping @Sendable (any ItemReading) throws -> Intent
    ) async throws -> Performed<Intent.Result> {
        guard !readOnly else {
            return Performed(result: try await read(makeIntent), undoStep: nil)
        }
        return try await writeTurns.inTurn {
            let (result, effect) = try await repository.write { transaction in
                try self.changing(transaction) { context in try makeIntent(context.transaction).run(in: context) }
            }
            return Performed(result: result, undoStep: apply(effect, action: Intent.self))
        }
    }

    /// Runs a read-only intent in a read transaction. A view of a day (``DatedView``) finds the
    /// to-dos of repeating series due that day made first (``MakeDueRepeats``), in a write of
    /// their own; a store that takes no writes shows the view without them.
    private func read<Intent: ArrangeIntent>(
        _ makeIntent: @escaping @Sendable (any ItemReading) throws -> Intent, makingDueRepeats: Bool = true
    ) async throws -> Intent.Result {
        let (result, dueDay) = try await repository.read { transaction -> (Intent.Result?, Day?) in
            let intent = try makeIntent(transaction)
            guard intent.isReadOnly else { throw IntentError.readOnlyIntent(Intent.title) }
            let context = IntentContext(reading: transaction, environment: self)
            if makingDueRepeats, let view = intent as? any DatedView {
                let day = view.day ?? context.today()
                if try !MakeDueRepeats.due(on: day, in: transaction).isEmpty { return (nil, day) }
            }
            return (try intent.run(in: context), nil)
        }
        if let result { return result }
        do {
            _ = try await perform(MakeDueRepeats(day: dueDay))
        } catch StoreError.readOnly {
            // A widget's view of the app's file: the app makes them when it opens.
        }
        return try await read(makeIntent, makingDueRepeats: false)
    }

    /// The answer of a read-only intent: now, and again after every committed change that alters
    /// it, whoever commits, as `ItemRepository.observe(_:)` observes a read.
    ///
    /// ```swift
    /// for try await listing in environment.observe(ListItems(list: groceries)) { show(listing) }
    /// ```
    ///
    /// - Parameter intent: The intent; one that writes ends the stream with
    ///   ``IntentError/readOnlyIntent(_:)``.
    public func observe<Intent: ArrangeIntent>(_ intent: Intent) -> AsyncThrowingStream<Intent.Result, any Error> where Intent.Result: Equatable {
        repository.observe { transaction in
            guard intent.isReadOnly else { throw IntentError.readOnlyIntent(Intent.title) }
            return try intent.run(in: IntentContext(reading: transaction, environment: self))
        }
    }

    /// The reminders that fire from `from` up to `to` (``GetReminders``): now, and again after
    /// every committed change that alters them. An app schedules the system's notifications from it.
    ///
    /// - Parameters:
    ///   - from: The first instant of the span.
    ///   - to: The instant after its end.
    public func observeReminders(from: Date, to: Date) -> AsyncThrowingStream<RemindersResult, any Error> {
        observe(GetReminders(from: from, to: to))
    }

    /// Runs `body` on a context in a write transaction and, when the environment syncs, logs
    /// what it records.
    ///
    /// - Returns: What `body` returns, and what the history should record.
    private func changing<Result>(_ transaction: any ItemWriting, _ body: (IntentContext) throws -> Result) throws -> (Result, HistoryEffect?) {
        guard let sync else {
            let context = IntentContext(writing: transaction, journal: nil, environment: self)
            return (try body(context), context.historyEffect)
        }
        // Only a store that syncs shares lists with other people.
        let shares = try transaction.listShares()
        return try sync.recording(in: transaction) { journal in
            let context = IntentContext(writing: transaction, journal: journal, shares: shares, environment: self)
            return (try body(context), context.historyEffect)
        }
    }

    // MARK: The default list

    /// Makes sure the store has a default list, and returns it.
    ///
    /// The store remembers its default list by id, so renaming it keeps it the default. When
    /// the store has none (a new store, or one written before it remembered), the list named
    /// ``defaultListName`` becomes the default, created when missing. Most calls only read.
    ///
    /// - Parameter name: A list to make the default instead, by name (ignoring case); it is
    ///   created when missing. A front end passes the name a person chose in its settings.
    /// - Throws: `TitleError` for a name that breaks the rules of list names, or `StoreError`.
    @discardableResult
    public func prepareDefaultList(named name: String? = nil) async throws -> ItemList {
        let wanted = try name.map { try Title.validated($0, as: .listName) }
        let isPrepared: @Sendable (any ItemReading) throws -> ItemList? = { transaction in
            guard let id = try transaction.defaultListID(), let list = try transaction.list(id: id) else { return nil }
            return wanted.map { ItemList.nameKey($0) == ItemList.nameKey(list.name) } ?? true ? list : nil
        }
        if let list = try await repository.read(isPrepared) { return list }
        return try await repository.write { transaction in
            if let list = try isPrepared(transaction) { return list }
            return try self.changing(transaction) { try $0.makeDefaultList(named: wanted) }.0
        }
    }

    // MARK: History

    /// The steps ``Undo`` can go back over, oldest first.
    public var undoSteps: [UndoStep] { history.withLock { $0.undo } }

    /// The steps ``Redo`` can go forward over, oldest first: the last is redone first.
    public var redoSteps: [UndoStep] { history.withLock { $0.redo } }

    /// How many steps ``Undo`` can go back.
    public var undoCount: Int { history.withLock { $0.undo.count } }

    /// How many steps ``Redo`` can go forward.
    public var redoCount: Int { history.withLock { $0.redo.count } }

    /// The step ``Undo`` (`back`) or ``Redo`` would take next.
    func nextStep(back: Bool) -> UndoStep? {
        history.withLock { back ? $0.undo.last : $0.redo.last }
    }

    /// Changes the history once the transaction of an intent has committed.
    ///
    /// - Returns: The step recorded for a new change.
    private func apply(_ effect: HistoryEffect?, action: any ArrangeIntent.Type) -> UndoStep? {
        guard let effect else { return nil }
        return history.withLock { history in
            switch effect {
            case .record(let changes):
                let step = UndoStep(id: newID(), action: action, changes: changes)
                history.undo.append(step)
                if history.undo.count > historyLimit { history.undo.removeFirst(history.undo.count - historyLimit) }
                history.redo.removeAll()
                return step
            case .stepped(let step, let back, let inverse):
                let inverseStep = UndoStep(id: step.id, action: step.action, changes: inverse)
                if back {
                    history.undo.removeAll { $0.id == step.id }
                    history.redo.append(inverseStep)
                } else {
                    history.redo.removeAll { $0.id == step.id }
                    history.undo.append(inverseStep)
                }
                return nil
            }
        }
    }
}

/// Turns to run, taken one at a time in the order they were asked for.
private actor WriteTurns {
    private var isTaken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` in a turn of its own: after every turn asked for before, and before any asked for after.
    func inTurn<Result: Sendable>(_ body: @Sendable () async throws -> Result) async throws -> Result {
        if isTaken {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            isTaken = true
        }
        defer { passTurn() }
        return try await body()
    }

    /// Gives the turn to the next in line, or frees it.
    private func passTurn() {
        if waiting.isEmpty {
            isTaken = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}

/// The undo and redo stacks of an environment.
private struct History {
    var undo: [UndoStep] = []
    var redo: [UndoStep] = []
}

/// What an intent's transaction asks of the history once it commits.
enum HistoryEffect: Sendable {
    /// Record a new step: the changes an intent made, in the order made.
    case record([ChangeRecord])
    /// A step was undone (`back`) or redone; the changes that made, its inverse, go onto the other stack.
    case stepped(UndoStep, back: Bool, inverse: [ChangeRecord])
}

/// One step of the undo history: what a person would see in an Edit menu, and how to take it.
///
/// Steps are values an app can hold: after an intent records one (``Performed/undoStep``), the
/// app registers an undo action with its `UndoManager`, named ``actionName``, that performs
/// ``Undo``. Undoing and redoing a step keeps its ``id``.
public struct UndoStep: Identifiable, Hashable, Sendable {
    /// The step's identity, kept through undo and redo.
    public let id: UUID
    /// The title of the intent that made the change, in the app's language
    /// (``ArrangeIntent/localizedTitle``): "Move Items".
    ///
    /// It is looked up when asked for, not when the step is recorded: a process that runs one
    /// intent and ends never reads its localization tables.
    public var actionName: String { action.localizedTitle }
    /// The intent that made the change.
    let action: any ArrangeIntent.Type
    /// The changes of the step, in the order made; going back over it takes them back, last first.
    let changes: [ChangeRecord]

    init(id: UUID, action: any ArrangeIntent.Type, changes: [ChangeRecord]) {
        self.id = id
        self.action = action
        self.changes = changes
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
