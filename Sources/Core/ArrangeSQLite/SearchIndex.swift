import ArrangeModel
import Foundation
import GRDB

/// Quick Find's index (migration v24): each item's title, notes and checklist, folded as
/// `SearchQuery` folds text, in an FTS5 table with the trigram tokenizer, which finds any run of
/// three characters. Triggers on `items` and `checklist_items` keep it up to date in the
/// transaction of every change.
///
/// SQLite's trigram tokenizer folds neither accents (not before 3.45) nor words shorter than
/// three characters, so the index holds each text in a form of its own (``indexText(_:)``):
/// its words, folded, each after two marks (U+0001) that let a word's first one or two
/// characters be found as a run of three; and, for words of Chinese, Japanese or Korean, each
/// pair of neighbouring characters after a mark of its own (U+0002), so that two characters are
/// found anywhere in such a word. A query word becomes the run that finds exactly the words it
/// matches (``phrase(for:)``), so the index answers `SearchQuery`'s rule itself.
enum SearchIndex {
    /// The table of each item's text in the index's form, as it is now.
    static let textTable = "search_text"
    /// The ids of the rows of ``textTable`` changed since the FTS5 index last took them.
    static let pendingTable = "search_pending"
    /// The texts the FTS5 index holds: its content table.
    static let indexedTable = "search_indexed"
    /// The FTS5 table over ``indexedTable``.
    static let indexTable = "search_index"
    /// The SQL function that makes a text's index form, which the triggers call: registered
    /// on every connection that writes (`SQLiteItemRepository`).
    static let function = DatabaseFunction("arrange_search_text", argumentCount: 1, pure: true) { values in
        indexText(String.fromDatabaseValue(values[0].databaseValue) ?? "")
    }

    /// The mark before each word, twice.
    private static let wordMark = "\u{1}\u{1}"
    /// The mark before each pair of neighbouring characters of a word of Chinese, Japanese or Korean.
    private static let pairMark = "\u{2}"

    /// `text` as the index holds it: each word after ``wordMark``, then each pair of neighbouring
    /// characters of a word that holds Chinese, Japanese or Korean after ``pairMark``, all
    /// separated by spaces.
    static func indexText(_ text: String) -> String {
        let words = SearchQuery.words(of: text)
        var parts = words.map { wordMark + $0 }
        for word in words {
            let scalars = Array(word.unicodeScalars)
            for index in scalars.indices.dropLast() where SearchQuery.isCJK(scalars[index]) || SearchQuery.isCJK(scalars[index + 1]) {
                parts.append(pairMark + String(String.UnicodeScalarView([scalars[index], scalars[index + 1]])))
            }
        }
        return parts.joined(separator: " ")
    }

    /// The run of characters that the index holds exactly where a word matches the query word
    /// `word`: the word itself from three characters; two characters of Chinese, Japanese or
    /// Korean as a pair; else the word after ``wordMark``, at a word's beginning.
    static func phrase(for word: String) -> String {
        let scalars = Array(word.unicodeScalars)
        if scalars.count >= 3 { return word }
        if scalars.count == 2, scalars.contains(where: SearchQuery.isCJK) { return pairMark + word }
        return wordMark + word
    }

    /// The FTS5 query for `words`: each word's phrase, quoted; a row matches when it holds all.
    /// A word holds no quote (punctuation separates words), so nothing in it is FTS5's syntax.
    static func matchExpression(_ words: [String]) -> String {
        words.map { "\"" + phrase(for: $0) + "\"" }.joined(separator: " AND ")
    }

    /// How many changed texts wait in ``pendingTable`` before the triggers index them all at
    /// once: FTS5 writes a segment at every commit that changes it, which costs an add about as
    /// much as the add itself, so the index takes the texts in batches.
    static let batchSize = 64

    /// Creates the tables and triggers, and indexes the items there are.
    ///
    /// The index has two tiers. `search_text` holds every item's text as it is now, kept by the
    /// triggers on `items` and `checklist_items` in the transaction of each change, and
    /// `search_pending` the rows changed since the FTS5 index last took them; when
    /// ``batchSize`` are waiting, a trigger hands them all to the FTS5 index (`search_index`,
    /// over `search_indexed`, the texts it holds) in the same transaction. A search asks the
    /// FTS5 index for the rows not waiting, and matches the waiting ones itself: both tiers
    /// together answer exactly, after every commit.
    static func create(in db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE \(textTable) (
              "id" INTEGER PRIMARY KEY,
              "item_id" TEXT NOT NULL UNIQUE,
              "title" TEXT NOT NULL,
              "notes" TEXT NOT NULL,
              "checklist" TEXT NOT NULL
            );
            CREATE TABLE \(pendingTable) ("id" INTEGER PRIMARY KEY);
            CREATE TABLE \(indexedTable) (
              "id" INTEGER PRIMARY KEY,
              "title" TEXT NOT NULL,
              "notes" TEXT NOT NULL,
              "checklist" TEXT NOT NULL
            );
            CREATE VIRTUAL TABLE \(indexTable) USING fts5(
              title, notes, checklist, content='\(indexedTable)', content_rowid='id', tokenize='trigram case_sensitive 1', columnsize=0
            );
            CREATE TRIGGER search_text_insert AFTER INSERT ON \(textTable) BEGIN
              INSERT OR IGNORE INTO \(pendingTable)(id) VALUES (new.id);
            END;
            CREATE TRIGGER search_text_update AFTER UPDATE ON \(textTable) BEGIN
              INSERT OR IGNORE INTO \(pendingTable)(id) VALUES (new.id);
            END;
            CREATE TRIGGER search_text_delete AFTER DELETE ON \(textTable) BEGIN
              INSERT OR IGNORE INTO \(pendingTable)(id) VALUES (old.id);
            END;
            CREATE TRIGGER search_pending_batch AFTER INSERT ON \(pendingTable)
              WHEN (SELECT count(*) FROM \(pendingTable)) >= \(batchSize) BEGIN
              INSERT INTO \(indexTable)(\(indexTable), rowid, title, notes, checklist)
                SELECT 'delete', id, title, notes, checklist FROM \(indexedTable) WHERE id IN (SELECT id FROM \(pendingTable));
              DELETE FROM \(indexedTable) WHERE id IN (SELECT id FROM \(pendingTable));
              INSERT INTO \(indexedTable)(id, title, notes, checklist)
                SELECT id, title, notes, checklist FROM \(textTable) WHERE id IN (SELECT id FROM \(pendingTable));
              INSERT INTO \(indexTable)(rowid, title, notes, checklist)
                SELECT id, title, notes, checklist FROM \(textTable) WHERE id IN (SELECT id FROM \(pendingTable));
              DELETE FROM \(pendingTable);
            END;
            CREATE TRIGGER items_search_insert AFTER INSERT ON items BEGIN
              INSERT INTO \(textTable)(item_id, title, notes, checklist)
                VALUES (new.id, arrange_search_text(new.title), arrange_search_text(new.notes), '');
            END;
            CREATE TRIGGER items_search_update AFTER UPDATE OF title, notes ON items
              WHEN old.title IS NOT new.title OR old.notes IS NOT new.notes BEGIN
              UPDATE \(textTable) SET title = arrange_search_text(new.title), notes = arrange_search_text(new.notes) WHERE item_id = new.id;
            END;
            CREATE TRIGGER items_search_delete AFTER DELETE ON items BEGIN
              DELETE FROM \(textTable) WHERE item_id = old.id;
            END;
            CREATE TRIGGER checklist_search_insert AFTER INSERT ON checklist_items BEGIN
              UPDATE \(textTable) SET checklist = \(checklistText("new.item_id")) WHERE item_id = new.item_id;
            END;
            CREATE TRIGGER checklist_search_update AFTER UPDATE OF title, item_id ON checklist_items
              WHEN old.title IS NOT new.title OR old.item_id IS NOT new.item_id BEGIN
              UPDATE \(textTable) SET checklist = \(checklistText("old.item_id")) WHERE item_id = old.item_id;
              UPDATE \(textTable) SET checklist = \(checklistText("new.item_id")) WHERE item_id = new.item_id;
            END;
            CREATE TRIGGER checklist_search_delete AFTER DELETE ON checklist_items BEGIN
              UPDATE \(textTable) SET checklist = \(checklistText("old.item_id")) WHERE item_id = old.item_id;
            END;
            """)
        // The items there are, indexed at once rather than in batches.
        try db.execute(sql: """
            INSERT INTO \(textTable)(item_id, title, notes, checklist)
              SELECT id, arrange_search_text(title), arrange_search_text(notes), \(checklistText("items.id")) FROM items;
            INSERT INTO \(indexedTable)(id, title, notes, checklist) SELECT id, title, notes, checklist FROM \(textTable);
            INSERT INTO \(indexTable)(rowid, title, notes, checklist) SELECT id, title, notes, checklist FROM \(textTable);
            DELETE FROM \(pendingTable);
            """)
    }

    /// The words of a text in the index's form (``indexText(_:)``): those after ``wordMark``.
    static func words(ofIndexText text: String) -> [String] {
        // By scalars: a mark followed by a combining one is one Character.
        text.unicodeScalars.split(separator: " ").compactMap { token in
            token.starts(with: wordMark.unicodeScalars) ? String(String.UnicodeScalarView(token.dropFirst(2))) : nil
        }
    }

    /// The SQL of the index form of the checklist of the item `item` names: its entries' titles.
    private static func checklistText(_ item: String) -> String {
        "arrange_search_text((SELECT group_concat(title, ' ') FROM checklist_items WHERE item_id = \(item)))"
    }
}
