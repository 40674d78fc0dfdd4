package engine

import (
	"bmc/solver"
	"bmc/ts"
)

// Reach builds into b the formula "property prop holds within k steps":
// the disjunction over j <= k of prop at frame j with the constraints at
// the frames before j. It is what `bmc export --dimacs K` and `--smt2 K`
// write.
func Reach(sys *ts.System, b solver.Builder, prop, k int) solver.Lit {
	u := NewUnrolling(sys, b)
	ok := sys.Ands(sys.Constraints...)
	prefix, any := b.True(), b.Not(b.True())
	for j := 0; j <= k; j++ {
		any = solver.Or(b, any, b.And(prefix, u.At(sys.Bad[prop].Lit, j)))
		prefix = b.And(prefix, u.At(ok, j))
	}
	return any
}
