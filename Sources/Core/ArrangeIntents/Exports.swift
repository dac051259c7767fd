// How an environment logs its changes (`ChangeLog`, `ChangeJournal`) and the changes it makes
// are ArrangeIntents' vocabulary: an app that imports ArrangeIntents names them without
// importing ArrangeChanges too.
@_exported public import ArrangeChanges
