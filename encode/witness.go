package encode

import (
	"fmt"

	"bmc/ir"
	"bmc/result"
	"bmc/ts"
)

// Steps reads a path of the one thread (see Model); the violation lies in
// the step from frame k.
func (en *sequential) Steps(values func(i int) []bool, k int) ([]result.ReplayStep, error) {
	var out []result.ReplayStep
	for i := 0; i <= k; i++ {
		vals := values(i)
		pc := bitsValue(vals, en.pc[0])
		if pc == pcDone {
			break
		}
		b := en.lay.byPC[pc]
		if b == nil {
			return nil, fmt.Errorf("witness: frame %d has pc %d, not a block head", i, pc)
		}
		rec := func(e *ir.Edge, globals, locals, locks []ts.Lit) {
			out = append(out, result.ReplayStep{Edge: e, Globals: evalAll(vals, globals), Locals: evalAll(vals, locals)})
		}
		v := en.runPath(b, ts.True, rec)
		if b.InitAt && (en.depth < 2 || bitsValue(vals, en.pc[1]) == pcEmpty) {
			continue // init ends here; the explicit interpreter started main on arrival
		}
		alt := bitsValue(vals, en.choice)
		if i == k {
			// The violating step: its straight-line part is recorded; a
			// final edge that stays in the frame may be the violation.
			// (No step is taken from frame k, so its choice may be any.)
			if alt < len(b.Last.Out) {
				if e := b.Last.Out[alt]; e.Kind != ir.Call && e.Kind != ir.Return && e.Kind != ir.EndThread {
					en.alternative(b, v, ts.True, e, rec)
				}
			}
			break
		}
		if alt >= len(b.Last.Out) {
			return nil, fmt.Errorf("witness: frame %d chooses edge %d of %d", i, alt, len(b.Last.Out))
		}
		e := b.Last.Out[alt]
		out = append(out, en.arrival(e, values(i+1), i+1, k, values))
	}
	return out, nil
}

// arrival is the last edge of a step with the values of the frame it
// arrives in (the frame after, when it arrives at init's end).
func (en *sequential) arrival(e *ir.Edge, next []bool, i, k int, values func(int) []bool) result.ReplayStep {
	st := result.ReplayStep{Edge: e}
	st.Globals = evalAll(next, en.globals)
	pc := bitsValue(next, en.pc[0])
	if b := en.lay.byPC[pc]; b != nil {
		if b.InitAt && (en.depth < 2 || bitsValue(next, en.pc[1]) == pcEmpty) {
			if i+1 > k {
				return st // main's initial locals are not in the path
			}
			next = values(i + 1)
			b = en.lay.byPC[bitsValue(next, en.pc[0])]
			if b == nil {
				return st
			}
		}
		st.Locals = evalAll(next, en.locals[0][:len(b.Proc.Locals)])
	}
	return st
}

// Steps reads a path of the threads (see Model), each step on the thread
// the scheduler picks.
func (d *direct) Steps(values func(i int) []bool, k int) ([]result.ReplayStep, error) {
	var out []result.ReplayStep
	for i := 0; i <= k; i++ {
		vals := values(i)
		if ts.Value(vals, d.done) || i == k && ts.Value(vals, d.labels) {
			break
		}
		steps, err := d.stepsAt(values, i, k)
		if err != nil {
			return nil, err
		}
		out = append(out, steps...)
	}
	return out, nil
}

// stepsAt reads the statements of the block step from frame i of a path
// of frames 0..k; from frame k, those up to the violation.
func (d *direct) stepsAt(values func(i int) []bool, i, k int) ([]result.ReplayStep, error) {
	type rec struct {
		e               *ir.Edge
		globals, locals []ts.Lit
	}
	vals := values(i)
	t := bitsValue(vals, d.sched)
	if t >= len(d.tpc) {
		return nil, fmt.Errorf("witness: frame %d schedules thread %d of %d", i, t, len(d.tpc))
	}
	pc := bitsValue(vals, d.tpc[t][0])
	b := d.lay.byPC[pc]
	if b == nil {
		return nil, fmt.Errorf("witness: frame %d: thread %d has pc %d, not a block head", i, t, pc)
	}
	var recs []rec
	record := func(e *ir.Edge, globals, locals, _ []ts.Lit) {
		recs = append(recs, rec{e, append([]ts.Lit(nil), globals...), append([]ts.Lit(nil), locals...)})
	}
	v := d.runPath(b, ts.True, record)
	var last *ir.Edge
	if alt := bitsValue(vals, d.choice); alt < len(b.Last.Out) {
		last = b.Last.Out[alt]
	} else if i < k {
		return nil, fmt.Errorf("witness: frame %d chooses edge %d of %d", i, alt, len(b.Last.Out))
	}
	final := i == k && last != nil && last.Kind != ir.Call && last.Kind != ir.Return && last.Kind != ir.EndThread && last.Kind != ir.Fork
	if final {
		// The violating step's final edge stays in the frame: its
		// values come from the symbolic run, as there is no frame k+1.
		d.alternative(b, v, ts.True, last, record)
	}
	vals = values(i) // the symbolic run may have built new nodes
	var out []result.ReplayStep
	for _, r := range recs {
		out = append(out, result.ReplayStep{Thread: t, Edge: r.e, Globals: evalAll(vals, r.globals), Locals: evalAll(vals, r.locals)})
	}
	if i == k {
		if last != nil && !final {
			out = append(out, result.ReplayStep{Thread: t, Edge: last})
		}
		return out, nil
	}
	next := values(i + 1)
	st := result.ReplayStep{Thread: t, Edge: last, Globals: evalAll(next, d.globals)}
	if nb := d.lay.byPC[bitsValue(next, d.tpc[t][0])]; nb != nil {
		st.Locals = evalAll(next, d.tlocals[t][0][:len(nb.Proc.Locals)])
	}
	return append(out, st), nil
}

func evalAll(vals []bool, ls []ts.Lit) []ir.Value {
	out := make([]ir.Value, len(ls))
	for i, l := range ls {
		out[i] = boolValue(ts.Value(vals, l))
	}
	return out
}

func boolValue(b bool) ir.Value {
	if b {
		return ir.True
	}
	return ir.False
}
