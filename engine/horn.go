package engine

import (
	"fmt"

	"bmc/chc"
	"bmc/solver"
)

// The answer, statistics and bounds shared by the summary engines:
// Spacer (spacer.go), LeastModel (leastmodel.go) and the ones that hand
// the clauses to a solver.Fixedpoint (fixedpoint.go).

// HornResult is a summary engine's answer for a clause system.
type HornResult struct {
	// Status is Sat when a query's body is derivable (Derivation is a
	// derivation of it), Unsat when none is (Interpretation holds the
	// summaries that show it), Unknown otherwise (Reason says why).
	Status         solver.Status
	Derivation     *chc.Derivation
	Interpretation *chc.Interpretation
	Reason         string
	Levels         int // the levels the engine opened (LeastModel: the relations' growths)
	Stats          HornStats
	// Order is LeastModel's variable of each input of the clauses'
	// graph, and Formals of each predicate's arguments (each with its
	// next copy right after it), for re-checking
	// its interpretation on diagrams in the same order.
	Order   map[int]int
	Formals [][]int
}

// DiagramOrder is the order for re-checking LeastModel's interpretation
// on diagrams (chc.CheckInterpretationDiagrams): its own; false for the
// other engines' results, which have none.
func (r *HornResult) DiagramOrder() (chc.DiagramOrder, bool) {
	if r.Order == nil {
		return chc.DiagramOrder{}, false
	}
	unplaced := 0
	for _, l := range r.Order {
		unplaced = max(unplaced, l+1)
	}
	for _, fs := range r.Formals {
		for _, l := range fs {
			unplaced = max(unplaced, l+2)
		}
	}
	return chc.DiagramOrder{
		Input: func(v int) int {
			if l, ok := r.Order[v]; ok {
				return l
			}
			return unplaced + v // an input no clause reads
		},
		Formal: func(p, k int) int { return r.Formals[p][k] },
		Next:   func(p, k int) int { return r.Formals[p][k] + 1 }, // LeastModel's next copy
	}, true
}

// HornStats count what a summary engine did.
type HornStats struct {
	Queries, Obligations, Facts, Lemmas int
}

func (s HornStats) String() string {
	return fmt.Sprintf("%d queries, %d obligations, %d must-summaries, %d lemmas", s.Queries, s.Obligations, s.Facts, s.Lemmas)
}

// HornOptions bound a summary engine.
type HornOptions struct {
	MaxLevels int // 0: no bound
	MaxNodes  int // LeastModel's bound on its diagrams' nodes (0: 1<<26)
	NewSolver func() solver.Solver
}
