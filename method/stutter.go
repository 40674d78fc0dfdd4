package method

import (
	"fmt"
	"io"

	"bmc/ir"
	"bmc/result"
)

// encoded is the program the bmc engine and the proof engines encode for
// p: p without the idle steps that close a loop (ir.WithoutStutter; the
// same states are reached with fewer steps, so a thread waiting in a
// spin loop costs the formulas nothing), or p itself when the user
// stated the step bound, which that would change. Counterexamples are
// still replayed on p (onProgram).
func encoded(p *ir.Program, stepsStated bool, progress io.Writer) *ir.Program {
	if stepsStated {
		return p
	}
	q, cut := ir.WithoutStutter(p)
	if cut > 0 && progress != nil {
		fmt.Fprintf(progress, "bmc: %d idle steps that close a loop left out (they reach no new state)\n", cut)
	}
	return q
}

// onProgram names the steps of a counterexample of encoded(p) by p's own
// steps (a copy keeps their IDs), so that it is replayed on p.
func onProgram(p *ir.Program, steps []result.ReplayStep) []result.ReplayStep {
	out := make([]result.ReplayStep, len(steps))
	for i, st := range steps {
		st.Edge = p.Edges[st.Edge.ID]
		out[i] = st
	}
	return out
}
