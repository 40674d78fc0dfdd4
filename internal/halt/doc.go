// Package halt ends a long construction (an encoding, a
// sequentialization, a program being loaded) as soon as its context ends,
// from however deep in the construction's recursion: Point panics with a
// value of its own, and Recover, deferred at the construction's entry,
// turns it into the context's cause. The constructions build one value
// and throw it away when halted, so nothing half-built escapes; this is
// the bail-out go/parser uses for its own errors. Reason words why a
// context ended, and MemoryLimitError is the cause of a context that the
// memory limit ended (result.Stopped turns either into a result's limit).
//
// It serves the stages of bmc's pipeline that build large values (lang,
// ir, seq, encode, moped; the pipeline is lang -> ir -> seq/moped ->
// encode -> ts -> engine -> solver -> sat/smt). It imports no bmc
// package, so that every one of them may use it.
package halt
