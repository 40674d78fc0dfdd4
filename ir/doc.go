// Package ir is the control-flow representation every engine works on:
// one graph per procedure, whose nodes are program locations and whose
// edges are single steps (a guarded parallel assignment, a call, a return,
// a lock operation, ...). Every node and edge keeps its source position so
// that traces are shown in the user's own lines.
//
// Load and Build lower a checked lang syntax tree into a Program; graph.go
// holds the graph helpers (successors, dominators, loop heads,
// topological order, call depth) that the later stages share,
// VisibleNodes the partial-order reduction's view of a program,
// WithoutStutter the copy of a program without the idle steps that close
// a loop, which the SAT paths encode, and FoldConstantGlobals the copy
// in which the threads read the globals that keep one value as that
// value, which the summary engine encodes.
//
// In the pipeline lang -> ir -> seq/moped/decompile -> encode -> ts ->
// engine -> solver -> sat/smt, ir comes right after the front end: it
// imports only lang, internal/halt and the standard library, and nothing
// later in the pipeline, so that every later stage can use it.
package ir
