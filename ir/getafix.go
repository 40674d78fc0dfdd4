package ir

import (
	"cmp"
	"slices"
)

// GetafixSwitchNodes marks, per procedure and node, the points where
// Getafix lets a thread be switched out, as its translator places them
// (translate_Mucke.c, insert_CS_into_statement_recursive, and the
// ContextSwitch relation of its cross-product formulas): a procedure's
// first statement, every `atomic := T` written alone, and, outside the
// regions such statements open (read in source order, up to the next
// `atomic := F` written alone), every statement that reads a global or
// writes a global other than the flag `atomic`, takes a lock or calls a
// `__VERIFIER_atomic_` procedure. `atomic, at := T, T` is neither a
// region's start nor a shared access there, so between two sections
// written that way with only thread-local code in between there is no
// such point. At a switch Getafix's formulas require the first global
// declared (GetafixFlag) to be false; they know no other atomicity.
func GetafixSwitchNodes(p *Program) [][]bool {
	out := make([][]bool, len(p.Procs))
	for _, pr := range p.Procs {
		at := make([]bool, len(pr.Nodes))
		at[pr.Entry] = true
		var edges []*Edge
		for _, n := range pr.Nodes {
			edges = append(edges, n.Out...)
		}
		slices.SortStableFunc(edges, func(a, b *Edge) int {
			return cmp.Or(cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
		})
		inRegion := false
		for _, e := range edges {
			if flag, value := getafixFlagWrite(e); flag {
				inRegion = value
				if value {
					at[e.From] = true
				}
				continue
			}
			if !inRegion && getafixShared(e) {
				at[e.From] = true
			}
		}
		out[pr.Index] = at
	}
	return out
}

// GetafixFlag is the global Getafix's formulas read as the atomic flag
// (their `v1`): the first one declared (`super_atomic` in programs that
// follow its README, which declares it first), nil without globals.
func GetafixFlag(p *Program) *Var {
	if len(p.Globals) == 0 {
		return nil
	}
	return p.Globals[0]
}

// getafixFlagWrite tells whether e is `atomic := c` written alone, and
// whether c is the constant T.
func getafixFlagWrite(e *Edge) (flag, value bool) {
	if len(e.Targets) != 1 || e.Targets[0] == nil || !e.Targets[0].Global || e.Targets[0].Name != "atomic" {
		return false, false
	}
	v := e.Values[0]
	return true, v != nil && v.Op == OpConst && v.Val
}

// getafixShared is Getafix's test for a statement outside an atomic
// region that may be preceded by a context switch.
func getafixShared(e *Edge) bool {
	if e.Lock != nil || e.Kind == Call && e.Callee != nil && e.Callee.Atomic {
		return true
	}
	skipped := false // the translator skips the first target named atomic
	for _, t := range e.Targets {
		switch {
		case t == nil || !t.Global:
		case t.Name == "atomic" && !skipped:
			skipped = true
		default:
			return true
		}
	}
	return readsGlobal(exprsOf(e))
}
