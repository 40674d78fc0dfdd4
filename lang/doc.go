// Package lang is the front end for concurrent Boolean programs: scanner,
// parser, abstract syntax, checker and printer. Its shape follows go/scanner
// and go/parser: hand-written, every node carries a position, and errors are
// collected into a list instead of stopping at the first one.
//
// It is the first stage of bmc's pipeline, lang -> ir -> seq/moped ->
// encode -> ts -> engine -> solver -> sat/smt, which package driver runs
// and the command cmd/bmc wraps: ir lowers its syntax trees. It imports
// no bmc package but internal/halt, so that every later stage may use its
// positions and trees.
package lang
