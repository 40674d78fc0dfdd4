// Package bdd holds reduced ordered binary decision diagrams: a node
// table with a unique table and an operation cache, the Boolean
// operations, existential quantification (also fused with a
// conjunction, the relational product of image computation),
// substitution and cofactors. Variables are levels: the caller chooses
// the order when it numbers its variables.
//
// It imports nothing of bmc; package engine computes least models of
// Horn clauses with it (engine.LeastModel), and package chc re-checks
// their interpretations on a fresh manager.
package bdd
