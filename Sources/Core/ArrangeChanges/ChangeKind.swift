package import ArrangeModel
import Foundation

/// One kind of change a person makes, as a value: all there is to know of it, in one file.
///
/// A kind of change is one value type that holds:
/// - its contract name (``name``): the key of its JSON in an operation, which never changes;
/// - its JSON, both ways: `Codable`, and the fast hand-written forms that the log and a server's
///   pushes use, derived from its ``members``, which tests hold to `Codable`;
/// - how it applies to a store (``apply(in:)``), the same on every replica;
/// - its validation (``check(_:)``), for operations received from other devices;
/// - its size bound, from its ``members``, and how a change of many ids splits into operations
///   that each fit the limit (``split(maximumIDs:)``);
/// - its case of ``SyncChange`` (``change``), the registry of every kind.
/// - what it names, by the rules of a shared list (``subjects``, from its ``members``), and
///   whether it is personal as a whole (``isPersonal``);
/// - for a kind an intent applies, its inverse for undo and the conflict that stops that undo
///   (`ReversibleChange`), and the difference in a row it tells (`FieldChange`).
///
/// Each new meaning is a new kind, never a new member of an existing kind: a replica of an
/// older version then keeps a change it cannot read, and passes it on
/// (``SyncChange/unknown(kind:json:)``), instead of applying half of it.
///
/// ```swift
/// try change.apply(in: context)   // what a merge does on every replica, and an intent here
/// change.change                   // the case of SyncChange that an operation carries
/// ```
package protocol ChangeKind: Hashable, Sendable, Codable {
    /// The kind's contract name: the key of its JSON in an operation, as `"moveList"` in
    /// `{"moveList":{"id":…,"place":{…}}}`.
    static var name: StaticString { get }

    /// The change as an operation carries it.
    var change: SyncChange { get }

    /// The members of the kind's JSON object, in the order they are written: from them come its
    /// fast JSON both ways (`init(reading:)` and `write(to:)`) and its size bound.
    static var members: ChangeMembers<Self> { get }

    /// The change of the members read.
    ///
    /// - Throws: ``OperationJSONReader/GiveUp`` when a member it needs is missing; `JSONDecoder`
    ///   then reads the line, and tells what is wrong with it.
    init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp)

    /// Reads the members of the kind's JSON object, the reader standing at its `{`: derived from
    /// ``members``. It is a requirement so that a kind found by its name reads in code made for it.
    ///
    /// - Throws: ``OperationJSONReader/GiveUp`` for JSON the fast reader does not read.
    init(reading json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp)

    /// Writes the members of the kind's JSON object: derived from ``members``.
    func write(to members: inout LogJSON.Members)

    /// More bytes than the members of the change's JSON can take: derived from ``members``.
    var sizeBound: Int { get }

    /// Whether every change of the kind is personal: Today, reminders, a list's place in the
    /// sidebar. False unless a kind says so.
    static var isPersonal: Bool { get }

    /// What the change names, by the rules of a shared list: derived from ``members`` and
    /// ``isPersonal``.
    var subjects: ChangeSubjects { get }

    /// Checks the change against the rules for operations from elsewhere: its texts' lengths
    /// and its notes' size. Most kinds hold no text, and check nothing.
    ///
    /// - Throws: The ``OperationProblem`` of the first rule it breaks.
    func check(_ check: ChangeCheck) throws(OperationProblem)

    /// The change as changes that each name at most `maximumIDs` ids, which applied in order do
    /// what it does: itself, for a kind that names one thing.
    func split(maximumIDs: Int) -> [Self]

    /// The change as operations' changes that each name at most
    /// `SyncChange.maximumIDsPerOperation` ids: derived from ``split(maximumIDs:)``.
    var splitChanges: [SyncChange] { get }

    /// Applies the change to the store of `context`, by the rules of the merge: what is gone
    /// meanwhile is left alone, and entries land by their recorded neighbours.
    ///
    /// - Throws: The store's errors; a change never throws for what it names being gone.
    func apply(in context: ChangeContext) throws
}

extension ChangeKind {
    package func check(_ check: ChangeCheck) throws(OperationProblem) {}

    package func split(maximumIDs: Int) -> [Self] { [self] }

    package var splitChanges: [SyncChange] { split(maximumIDs: SyncChange.maximumIDsPerOperation).map(\.change) }

    /// The change split into chunks of at most `maximum` of `ids`, each made by `make`; itself
    /// when it names no more.
    package func chunks<Subject>(of ids: [Identifier<Subject>], maximum: Int, _ make: ([Identifier<Subject>]) -> Self) -> [Self] {
        guard ids.count > maximum else { return [self] }
        return stride(from: 0, to: ids.count, by: maximum).map { make(Array(ids[$0..<min($0 + maximum, ids.count)])) }
    }

    /// A run of entries moved to `place`, split into consecutive runs of at most `maximum`, each
    /// placed after the last entry of the one before, so that replaying them in order lands the
    /// whole run where the change put it; itself when it names no more.
    ///
    /// ```swift
    /// ItemsMoved(ids: sixHundred, list: home, place: SyncPlace(after: p, before: s)).split(maximumIDs: 256)
    /// // [the first 256 at (p, s), the next 256 at (#256, s), the last 88 at (#512, s)]
    /// ```
    package func runs<Subject: OrderedSubject>(
        of ids: [Identifier<Subject>], at place: SyncPlace, maximum: Int, _ make: ([Identifier<Subject>], SyncPlace) -> Self
    ) -> [Self] {
        guard ids.count > maximum else { return [self] }
        return stride(from: 0, to: ids.count, by: maximum).map { start in
            let after = start == 0 ? place.after : ids[start - 1].entryID
            return make(Array(ids[start..<min(start + maximum, ids.count)]), SyncPlace(after: after, before: place.before))
        }
    }
}

/// The rules a change from elsewhere is held to, for ``ChangeKind/check(_:)``: every title and
/// name keeps to `Title.maximumLength` characters, and, under the current rules, notes to
/// `Item.maximumNotesSize` bytes.
package struct ChangeCheck {
    /// Whether notes are held to their size limit: not for operations that may have been made
    /// before it.
    package let checksNotes: Bool

    package init(checksNotes: Bool) {
        self.checksNotes = checksNotes
    }

    /// Checks that a title or a name keeps to `Title.maximumLength` characters.
    package func length(of text: String, as field: TitleError.Field) throws(OperationProblem) {
        // Counting characters walks the text: skip it when even one byte each keeps to the limit.
        guard text.utf8.count > Title.maximumLength else { return }
        let length = text.count
        guard length <= Title.maximumLength else { throw .textTooLong(field: field, length: length) }
    }

    /// Checks that notes keep to `Item.maximumNotesSize` bytes, under the current rules.
    package func notes(_ notes: String) throws(OperationProblem) {
        guard checksNotes else { return }
        do {
            try Item.validateNotes(notes)
        } catch {
            throw .notesTooLarge(bytes: Item.notesSize(notes))
        }
    }
}
