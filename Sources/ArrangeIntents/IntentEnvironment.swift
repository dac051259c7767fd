public import ArrangeModel
public import ArrangeOrdering
public import ArrangeStore
public import Foundation
import Synchronization

/// What intents run against: the store, the ordering service, a clock, an id source, and
/// the session's state (the current list and the undo and redo history).
///
/// One environment is one session: the REPL and `arrange run` keep one for their whole
/// run, so ``Undo`` and ``Redo`` work across the intents of the session. Run one intent at a
/// time per environment; the history records them in the order they finish.
public final class IntentEnvironment: Sendable {
    /// Places and moves items; its repository is ``repository``.
    public let ordering: OrderingService
    /// The clock that stamps new, completed and changed items.
    public let clock: @Sendable () -> Date
    /// The source of new ids for items and lists.
    public let newID: @Sendable () -> UUID
    /// The name of the list intents use when they name none and no list is current.
    public let defaultListName: String
    /// The most steps ``Undo`` can go back; older steps are forgotten.
    public let historyLimit: Int

    private let session: Mutex<Session>

    /// The store intents read and write.
    public var repository: any ItemRepository { ordering.repository }

    /// Creates an environment around an ordering service.
    ///
    /// - Parameters:
    ///   - ordering: The service that places items; intents use its repository.
    ///   - defaultListName: The list intents use when they name none.
    ///   - historyLimit: The most steps undo can go back.
    ///   - clock: Stamps `createdAt`, `updatedAt` and `completedAt`. Give the ordering service the same clock.
    ///   - newID: Makes the ids of new items and lists.
    public init(
        ordering: OrderingService,
        defaultListName: String = "Inbox",
        historyLimit: Int = 500,
        clock: @escaping @Sendable () -> Date = Date.init,
        newID: @escaping @Sendable () -> UUID = UUID.init
    ) {
        self.ordering = ordering
        self.defaultListName = defaultListName
        self.historyLimit = max(0, historyLimit)
        self.clock = clock
        self.newID = newID
        self.session = Mutex(Session())
    }

    /// Creates an environment and its ordering service over a repository.
    ///
    /// - Throws: ``OrderingConfiguration/Problem`` when `configuration` cannot work.
    public convenience init(
        repository: any ItemRepository,
        configuration: OrderingConfiguration = OrderingConfiguration(),
        random: some RandomNumberGenerator & Sendable = SystemRandomNumberGenerator(),
        defaultListName: String = "Inbox",
        historyLimit: Int = 500,
        clock: @escaping @Sendable () -> Date = Date.init,
        newID: @escaping @Sendable () -> UUID = UUID.init
    ) throws(OrderingConfiguration.Problem) {
        let ordering = try OrderingService(repository: repository, configuration: configuration, random: random, now: clock)
        self.init(ordering: ordering, defaultListName: defaultListName, historyLimit: historyLimit, clock: clock, newID: newID)
    }

    // MARK: The current list

    /// The list chosen with ``useList(_:)``: intents that name no list use it, and `#N`
    /// counts its items. `nil`, or a list that no longer exists, means the default list.
    public var currentList: ItemList.ID? {
        session.withLock { $0.currentList }
    }

    /// Makes the list `reference` names the current list, and returns it.
    ///
    /// - Throws: ``IntentError/unknownList(_:known:)``.
    @discardableResult
    public func useList(_ reference: ListReference) throws -> ItemList {
        let list = try resolveList(reference)
        session.withLock { $0.currentList = list.id }
        return list
    }

    /// The list `reference` names, as it is now in the store; without a reference, the
    /// current list: the one chosen with ``useList(_:)``, else the default list.
    ///
    /// - Throws: ``IntentError/unknownList(_:known:)``.
    public func resolveList(_ reference: ListReference? = nil) throws -> ItemList {
        try repository.read { try Resolver($0, environment: self).list(reference) }
    }

    /// Creates the default list when no list has its name. Front ends call this when they
    /// open a store, so that an intent that names no list always has one.
    ///
    /// - Returns: Whether the list was created.
    @discardableResult
    public func ensureDefaultList() throws -> Bool {
        let name = try Title.validated(defaultListName, as: .listName)
        let key = ItemList.nameKey(name)
        let exists = { (transaction: any ItemReading) in
            try transaction.lists().contains { ItemList.nameKey($0.name) == key }
        }
        // Most opens find the list: look first without taking the write lock.
        guard try !repository.read(exists) else { return false }
        return try repository.write { transaction in
            guard try !exists(transaction) else { return false }
            try transaction.insert(ItemList(id: ItemList.ID(rawValue: newID()), name: name, createdAt: clock()))
            return true
        }
    }

    // MARK: History

    /// How many steps ``Undo`` can go back.
    public var undoCount: Int { session.withLock { $0.undo.count } }

    /// How many steps ``Redo`` can go forward.
    public var redoCount: Int { session.withLock { $0.redo.count } }

    /// Runs a read-only intent body on one snapshot.
    func read<Result>(_ body: (Resolver) throws -> Result) throws -> Result {
        try repository.read { try body(Resolver($0, environment: self)) }
    }

    /// Runs an intent body in one write transaction and records how to undo what it did.
    ///
    /// The body returns its result and the change to record, or `nil` when it changed nothing
    /// (then the history stays as it is). A recorded change clears the redo history.
    func write<Result>(_ action: String, _ body: (any ItemWriting, Resolver) throws -> (Result, Change?)) throws -> Result {
        let (result, change) = try repository.write { transaction in
            try body(transaction, Resolver(transaction, environment: self))
        }
        if let change {
            session.withLock { session in
                session.undo.append(Step(action: action, change: change))
                if session.undo.count > historyLimit { session.undo.removeFirst(session.undo.count - historyLimit) }
                session.redo.removeAll()
            }
        }
        return result
    }

    /// Undoes or redoes the newest step of one stack in one transaction, and moves the step's
    /// inverse onto the other stack. When it fails, the step stays where it was.
    func step(back: Bool) throws -> HistoryResult {
        let popped = session.withLock { session in back ? session.undo.popLast() : session.redo.popLast() }
        guard let step = popped else { throw back ? IntentError.nothingToUndo : IntentError.nothingToRedo }
        do {
            let inverse = try repository.write { transaction in
                try step.change.apply(in: transaction, environment: self, action: step.action)
            }
            return session.withLock { session in
                if back { session.redo.append(Step(action: step.action, change: inverse)) }
                else { session.undo.append(Step(action: step.action, change: inverse)) }
                return HistoryResult(action: step.action, undoCount: session.undo.count, redoCount: session.redo.count)
            }
        } catch {
            session.withLock { session in
                if back { session.undo.append(step) } else { session.redo.append(step) }
            }
            throw error
        }
    }
}

/// The part of an environment that changes as a session goes on.
private struct Session {
    var currentList: ItemList.ID?
    var undo: [Step] = []
    var redo: [Step] = []
}

/// One recorded step of the history: what undoing it does, under the title of the intent.
struct Step: Sendable {
    var action: String
    var change: Change
}
