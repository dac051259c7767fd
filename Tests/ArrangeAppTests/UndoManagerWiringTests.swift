// The undo wiring an app writes, against a stand-in with `UndoManager`'s shape: Linux has no
// `UndoManager`. Through the public API only.
import ArrangeIntents
import ArrangeModel
import ArrangeSQLite
import Foundation
import Testing

/// What `UndoManager` does with what a model registers: a handler registered while it undoes
/// goes onto the redo stack, one registered while it redoes onto the undo stack, and any other
/// onto the undo stack, clearing the redo stack.
@MainActor
final class UndoManagerStandIn {
    private var undoStack: [(name: String, handler: () -> Void)] = []
    private var redoStack: [(name: String, handler: () -> Void)] = []
    private var isUndoing = false
    private var isRedoing = false

    var undoActionName: String? { undoStack.last?.name }
    var redoActionName: String? { redoStack.last?.name }

    func registerUndo<Target: AnyObject>(withTarget target: Target, handler: @escaping (Target) -> Void) {
        let entry = (name: "", handler: { [unowned target] in handler(target) })
        if isUndoing {
            redoStack.append(entry)
        } else {
            undoStack.append(entry)
            if !isRedoing { redoStack.removeAll() }
        }
    }

    func setActionName(_ name: String) {
        if isUndoing, !redoStack.isEmpty { redoStack[redoStack.count - 1].name = name } else if !undoStack.isEmpty { undoStack[undoStack.count - 1].name = name }
    }

    func undo() {
        guard let entry = undoStack.popLast() else { return }
        isUndoing = true
        entry.handler()
        isUndoing = false
    }

    func redo() {
        guard let entry = redoStack.popLast() else { return }
        isRedoing = true
        entry.handler()
        isRedoing = false
    }
}

/// An app's model, wired as "Getting started" shows: each step registers its undo; the undo
/// registers its redo at once, while the manager undoes, then performs `Undo(expecting:)`.
@MainActor
final class WiredModel {
    let environment: IntentEnvironment
    let undoManager = UndoManagerStandIn()
    /// The error the app would show, from the last action.
    var shownError: String?
    private var pending: [Task<Void, Never>] = []

    init(environment: IntentEnvironment) {
        self.environment = environment
    }

    /// Performs a person's action, and registers its step.
    func perform(_ intent: some ArrangeIntent) async throws {
        if let step = try await environment.perform(intent).undoStep { registerUndo(of: step) }
    }

    private func registerUndo(of step: UndoStep) {
        undoManager.registerUndo(withTarget: self) { model in
            model.registerRedo(of: step)
            model.run(Undo(expecting: step.id))
        }
        undoManager.setActionName(step.actionName)
    }

    private func registerRedo(of step: UndoStep) {
        undoManager.registerUndo(withTarget: self) { model in
            model.registerUndo(of: step)
            model.run(Redo(expecting: step.id))
        }
        undoManager.setActionName(step.actionName)
    }

    private func run(_ intent: some ArrangeIntent) {
        let environment = environment
        pending.append(Task { @MainActor [weak self] in
            do { _ = try await intent.perform(in: environment) } catch { self?.shownError = error.localizedDescription }
        })
    }

    /// Waits for the undos and redos started so far.
    func settle() async {
        while let task = pending.first {
            pending.removeFirst()
            await task.value
        }
    }
}

@Suite("An app's UndoManager wiring")
struct UndoManagerWiringTests {
    @Test("Undo registers redo, one step per action; an undo the store no longer allows surfaces as an error")
    @MainActor
    func wiring() async throws {
        let environment = try IntentEnvironment(repository: try SQLiteItemRepository.inMemory())
        let model = WiredModel(environment: environment)
        let titles = { try await ListItems().perform(in: environment).items.map(\.title) }

        try await model.perform(AddItem(title: "Milk"))
        let eggs = try await AddItem(title: "Eggs").perform(in: environment)  // not registered: made elsewhere
        try await model.perform(EditItem(eggs.items[0].id, title: "Free-range eggs"))
        #expect(model.undoManager.undoActionName == "Edit Item")

        model.undoManager.undo()
        await model.settle()
        #expect(try await titles() == ["Milk", "Eggs"])
        #expect(model.undoManager.redoActionName == "Edit Item" && model.undoManager.undoActionName == "Add Item")

        model.undoManager.redo()
        await model.settle()
        #expect(try await titles() == ["Milk", "Free-range eggs"])
        #expect(model.undoManager.undoActionName == "Edit Item" && model.undoManager.redoActionName == nil)
        #expect(model.shownError == nil)

        model.undoManager.undo()
        await model.settle()
        // The app's next undo names "Add Item", but the newest step of the environment is the
        // unregistered "Add Eggs": it is refused, and the person sees why.
        model.undoManager.undo()
        await model.settle()
        #expect(model.shownError == "Cannot go back over “Add Item”: a newer change came after it; undo that first.")
        #expect(try await titles() == ["Milk", "Eggs"])
    }
}
