package fairness

import (
	"context"
	"fmt"

	"bmc/ir"
	"bmc/result"
	"bmc/seq"
)

// Program is the translation ((P))^{k1,k2} of a concurrent program: a
// sequential program whose assertion fails exactly when the program has
// a livelock within the bound, and what is needed to read a failing run
// back as the program's stem and loop.
type Program struct {
	Seq   *ir.Program // one thread, `main`
	Orig  *ir.Program
	Bound result.LassoBound
	// Threads names the thread instances, as in traces (phil#2).
	Threads []string
	// DepthCut lists the calls that recursion would have taken beyond the
	// call depth bound: the translation ends those runs, so without a
	// livelock it has not covered every execution within the depth.
	DepthCut []*ir.Edge

	in *inlined
	sp *seq.Program
}

// Supported says why Lasso refuses p whatever the bound (atomic
// procedures and enforce clauses in thread code, and what package seq
// refuses), or nil. (Lasso may still refuse a thread that its inlining
// makes too large at a given depth.)
func Supported(p *ir.Program) error {
	if err := seq.Supported(p); err != nil {
		return err
	}
	for _, t := range p.Threads {
		if err := checkCalls(p, t.Proc, map[*ir.Proc]bool{}); err != nil {
			return err
		}
	}
	return nil
}

// Lasso translates p for bound b, with at most depth frames per thread.
// It refuses programs it cannot translate exactly (atomic procedures and
// enforce clauses in thread code, and what package seq refuses), saying
// why. When ctx ends first, the error is its cause.
func Lasso(ctx context.Context, p *ir.Program, b result.LassoBound, depth int) (*Program, error) {
	if err := seq.Supported(p); err != nil {
		return nil, err
	}
	in, err := inline(p, depth)
	if err != nil {
		return nil, err
	}
	sp, err := seq.Lasso(ctx, in.q, b)
	if err != nil {
		return nil, err
	}
	return &Program{Seq: sp.Seq, Orig: p, Bound: b, Threads: sp.Threads, DepthCut: in.cut, in: in, sp: sp}, nil
}

// Witness reads a failing run of Lasso's sequential program (its steps with
// the values after each, as encode.Model.Steps gives them) back as steps
// of the original program in execution order, for explicit.ReplayLasso:
// the stem, then the loop, which starts at the returned index.
func (fp *Program) Witness(trace []result.ReplayStep) ([]result.ReplayStep, int, error) {
	steps, loop, err := fp.sp.InterleaveLasso(trace)
	if err != nil {
		return nil, 0, err
	}
	out := make([]result.ReplayStep, len(steps))
	for i, st := range steps {
		id := st.Edge.ID
		if id >= len(fp.in.origin) || fp.in.q.Edges[id] != st.Edge {
			return nil, 0, fmt.Errorf("witness: step %d is not a step of the inlined program", i)
		}
		st.Edge = fp.in.origin[id]
		if st.Locals != nil && id >= len(fp.Orig.Edges) {
			// The top frame's locals among the inlined procedure's.
			var locals []ir.Value
			for _, k := range fp.in.frame[id] {
				locals = append(locals, st.Locals[k])
			}
			st.Locals = locals
		}
		out[i] = st
	}
	return out, loop, nil
}

// Keyframes translates p for bound b keeping its procedures, recursion
// included (seq.LassoKeyframes): a program whose assertion holds when p
// has no livelock within b at any call depth, for an engine that decides
// recursive programs (summaries).
func Keyframes(ctx context.Context, p *ir.Program, b result.LassoBound) (*Program, error) {
	sp, err := seq.LassoKeyframes(ctx, p, b)
	if err != nil {
		return nil, err
	}
	return &Program{Seq: sp.Seq, Orig: p, Bound: b, Threads: sp.Threads, sp: sp}, nil
}

// Witnesses reads a failing run of Keyframes's program as the program's
// lassos to replay, in order (seq.Program.InterleaveKeyframes).
func (fp *Program) Witnesses(trace []result.ReplayStep) ([]seq.LassoWitness, error) {
	return fp.sp.InterleaveKeyframes(trace)
}
