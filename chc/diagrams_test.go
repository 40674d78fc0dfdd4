package chc

import (
	"math/rand/v2"
	"testing"

	"bmc/bdd"
	"bmc/ts"
)

// TestGraphDiagram builds random graphs of conjunctions, disjunctions,
// if-then-elses (the multiplexers GraphDiagram reads as one node) and
// exclusive ors, in both polarities, and compares each literal's diagram
// with the graph's value under every assignment of the inputs.
func TestGraphDiagram(t *testing.T) {
	const inputs = 5
	for seed := range 200 {
		r := rand.New(rand.NewPCG(uint64(seed), 3))
		g := ts.New()
		lits := []ts.Lit{ts.True, ts.False}
		for i := range inputs {
			lits = append(lits, g.NewInput(string(rune('a'+i))))
		}
		pick := func() ts.Lit {
			l := lits[r.IntN(len(lits))]
			if r.IntN(2) == 0 {
				l = l.Not()
			}
			return l
		}
		for range 12 {
			var l ts.Lit
			switch r.IntN(4) {
			case 0:
				l = g.And(pick(), pick())
			case 1:
				l = g.Or(pick(), pick())
			case 2:
				l = g.Ite(pick(), pick(), pick())
			default:
				l = g.Xor(pick(), pick())
			}
			lits = append(lits, l)
		}
		m := bdd.New()
		var memo GraphMemo
		vals := make([]bool, g.NumVars())
		for _, l := range lits {
			for _, l := range []ts.Lit{l, l.Not()} {
				d := GraphDiagram(m, g, l, &memo, func(v int) bdd.Node { return m.Var(v) })
				for a := range 1 << inputs {
					at := map[int]bool{}
					for i, in := range g.Inputs() {
						vals[in.Var()] = a>>i&1 == 1
						at[in.Var()] = vals[in.Var()]
					}
					g.Eval(vals)
					if got, want := m.Eval(d, at), ts.Value(vals, l); got != want {
						t.Fatalf("seed %d: literal %v is %v under %b, its diagram %v", seed, l, want, a, got)
					}
				}
			}
		}
	}
}
