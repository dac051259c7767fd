// The changes sync exchanges, and the operations that carry them, are ArrangeSync's vocabulary:
// an app that imports ArrangeSync names `SyncOperation`, `SyncChange` and `SyncPlace` without
// importing ArrangeChanges too.
@_exported public import ArrangeChanges
