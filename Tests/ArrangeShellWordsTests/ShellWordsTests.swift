import ArrangeShellWords
import Testing

@Suite("Splitting a REPL line into words")
struct ShellWordsTests {
    @Test("The documented examples hold")
    func documentedExamples() throws {
        #expect(try ShellWords.split(#"move #5 after "Buy milk""#) == ["move", "#5", "after", "Buy milk"])
        #expect(try ShellWords.split(#"add it\'s"#) == ["add", "it's"])
        #expect(try ShellWords.split("   ") == [])
        #expect(throws: ShellWordsError.unterminatedQuote("'", position: 5)) { try ShellWords.split("add 'milk") }
    }

    @Test("Spaces, tabs and line breaks separate words, and runs of them count as one")
    func separators() throws {
        #expect(try ShellWords.split("  list \t show\n today  ") == ["list", "show", "today"])
    }

    @Test("An empty line has no words", arguments: ["", " ", "\t\n"])
    func empty(line: String) throws {
        #expect(try ShellWords.split(line) == [])
    }

    @Test("Single quotes keep every character, backslashes and double quotes included")
    func singleQuotes() throws {
        #expect(try ShellWords.split(#"add 'a \n "b" #1'"#) == ["add", #"a \n "b" #1"#])
    }

    @Test("In double quotes, a backslash escapes only a double quote or a backslash")
    func doubleQuotes() throws {
        #expect(try ShellWords.split(#""say \"hi\"""#) == [#"say "hi""#])
        #expect(try ShellWords.split(#""a\\b""#) == [#"a\b"#])
        #expect(try ShellWords.split(#""C:\temp\n 'x'""#) == [#"C:\temp\n 'x'"#])
    }

    @Test("Outside quotes, a backslash keeps the next character as it is")
    func backslashOutsideQuotes() throws {
        #expect(try ShellWords.split(##"Buy\ milk \#5 \"q\" a\\b \x"##) == ["Buy milk", "#5", #""q""#, #"a\b"#, "x"])
    }

    @Test("Quoted and unquoted parts next to each other make one word")
    func adjacentParts() throws {
        #expect(try ShellWords.split(#"a"b c"d'e f'g"#) == ["ab cde fg"])
    }

    @Test("Empty quotes make an empty word")
    func emptyQuotes() throws {
        #expect(try ShellWords.split(#"rename '' "" x"#) == ["rename", "", "", "x"])
    }

    @Test("# starts no comment, so item references are words")
    func hashIsNotAComment() throws {
        #expect(try ShellWords.split("move #5 before #12 # not a comment") ==
            ["move", "#5", "before", "#12", "#", "not", "a", "comment"])
        #expect(try ShellWords.split("done#5") == ["done#5"])
    }

    @Test("Words keep any Unicode, and only ASCII white space separates them")
    func unicode() throws {
        #expect(try ShellWords.split("add 'Café ☕️' 👨‍👩‍👧‍👦 「買い物」") == ["add", "Café ☕️", "👨‍👩‍👧‍👦", "「買い物」"])
        #expect(try ShellWords.split("a\u{00A0}b") == ["a\u{00A0}b"])
        #expect(try ShellWords.split("\"e\u{301}\"") == ["e\u{301}"])
    }

    @Test("An unclosed quote is refused, naming where it opened")
    func unterminatedQuote() {
        #expect(throws: ShellWordsError.unterminatedQuote("\"", position: 5)) { try ShellWords.split(#"add "milk"#) }
        #expect(throws: ShellWordsError.unterminatedQuote("'", position: 4)) { try ShellWords.split("☕️ a'b") }
        #expect(throws: ShellWordsError.unterminatedQuote("\"", position: 1)) { try ShellWords.split(#""ends in \""#) }
        #expect(
            ShellWordsError.unterminatedQuote("'", position: 5).description
                == "The quote ' at position 5 is never closed; add a closing '.")
    }

    @Test("A line that ends in an escaping backslash is refused")
    func trailingBackslash() {
        #expect(throws: ShellWordsError.trailingBackslash) { try ShellWords.split(#"add milk\"#) }
        #expect(throws: Never.self) { try ShellWords.split(#"add 'milk\'"#) }
    }
}
