// Package decompile turns control-flow graphs back into structured
// Boolean-program text: Write prints an ir.Program in the classic syntax
// that bmc reads, so that a sequentialization or a lowered program can be
// given to other tools or read by people, and WriteSyntax prints it in
// the part of that syntax Moped reads (package moped lowers programs into
// it). Loading the printed text gives a program with the same verdicts.
//
// The printer recovers if, while and goto from the graph with the
// dominator trees of package ir. It prints expressions itself rather than
// through lang's printer: that one leaves out the parentheses precedence
// makes redundant, while here every binary operand of another operator
// is parenthesized (precedence differs between tools), and the Moped
// syntax restricts where `*`, schoose and `!!` may appear.
//
// Files, in the order of the printing: write.go (Write, WriteSyntax and
// what they promise), syntax.go (Syntax and the dialect table: all that
// Moped's syntax differs in, and its refusals), names.go (identifiers and
// the Getafix naming rule), program.go (threads, declarations, error
// labels), proc.go (one procedure and its locals), layout.go (the graph
// laid out as if, while and goto), edges.go (one edge as statements),
// expr.go (expressions) and print.go (labels and the text).
//
// In the pipeline lang -> ir -> seq/moped/decompile -> encode -> ts ->
// engine -> solver -> sat/smt, decompile sits beside seq and moped: it
// imports only ir, lang, internal/halt and the standard library, and ir
// does not import it.
package decompile
