// Package bdd holds reduced ordered binary decision diagrams: a node
// table with a unique table and an operation cache, the Boolean
// operations, existential quantification (also fused with a
// conjunction, the relational product of image computation, and with
// a renaming of the latches to their next values or back, so that an
// image needs no renamed copy of its states), substitution and
// cofactors. Variables are levels: the caller chooses the order when it
// numbers its variables. A manager that is done gives its tables to
// the next one (Free): zeroing fresh memory was a fifth of a run of
// seven managers.
//
// It imports nothing of bmc; package engine computes least models of
// Horn clauses with it (engine.LeastModel) and the fixpoints of
// K-induction with amplification, and package chc re-checks least
// models' interpretations on a fresh manager.
package bdd
