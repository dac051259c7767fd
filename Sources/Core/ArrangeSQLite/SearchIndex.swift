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
    /// The table of each item's text in the index's form, which the FTS5 table indexes.
    static let textTable = "search_text"
    /// The FTS5 table over ``textTable``.
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

    /// Creates the tables and triggers, and indexes the items there are.
    static func create(in db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE \(textTable) (
              "id" INTEGER PRIMARY KEY,
              "item_id" TEXT NOT NULL UNIQUE,
              "title" TEXT NOT NULL,
              "notes" TEXT NOT NULL,
              "checklist" TEXT NOT NULL
            );
            CREATE VIRTUAL TABLE \(indexTable) USING fts5(
              title, notes, checklist, content='\(textTable)', content_rowid='id', tokenize='trigram case_sensitive 1', columnsize=0
            );
            CREATE TRIGGER search_text_insert AFTER INSERT ON \(textTable) BEGIN
              INSERT INTO \(indexTable)(rowid, title, notes, checklist) VALUES (new.id, new.title, new.notes, new.checklist);
            END;
            CREATE TRIGGER search_text_delete AFTER DELETE ON \(textTable) BEGIN
              INSERT INTO \(indexTable)(\(indexTable), rowid, title, notes, checklist) VALUES ('delete', old.id, old.title, old.notes, old.checklist);
            END;
            CREATE TRIGGER search_text_update AFTER UPDATE ON \(textTable) BEGIN
              INSERT INTO \(indexTable)(\(indexTable), rowid, title, notes, checklist) VALUES ('delete', old.id, old.title, old.notes, old.checklist);
              INSERT INTO \(indexTable)(rowid, title, notes, checklist) VALUES (new.id, new.title, new.notes, new.checklist);
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
        try db.execute(sql: """
            INSERT INTO \(textTable)(item_id, title, notes, checklist)
              SELECT id, arrange_search_text(title), arrange_search_text(notes), \(checklistText("items.id")) FROM items
            """)
    }

    /// The SQL of the index form of the checklist of the item `item` names: its entries' titles.
    private static func checklistText(_ item: String) -> String {
        "arrange_search_text((SELECT group_concat(title, ' ') FROM checklist_items WHERE item_id = \(item)))"
    }
}
