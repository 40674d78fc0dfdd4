package encode

import (
	"fmt"

	"bmc/ir"
	"bmc/result"
	"bmc/ts"
)

// Steps turns a path of the transition system into the statements it
// executes, with the values after each, for replay on the explicit
// interpreter. values(i) gives every variable of the system at frame i
// (latches and inputs from a model, the rest evaluated); the path has
// frames 0..k, and the violation lies in the step from frame k.
func (en *Encoding) Steps(values func(i int) []bool, k int) ([]result.ReplayStep, error) {
	var out []result.ReplayStep
	for i := 0; i <= k; i++ {
		vals := values(i)
		pc := en.pcValue(vals, 0)
		if pc == PCDone {
			break
		}
		b := en.byPC[pc]
		if b == nil {
			return nil, fmt.Errorf("witness: frame %d has pc %d, not a block head", i, pc)
		}
		rec := func(e *ir.Edge, globals, locals, locks []ts.Lit) {
			out = append(out, result.ReplayStep{Edge: e, Globals: evalAll(vals, globals), Locals: evalAll(vals, locals)})
		}
		v := en.runPath(b, ts.True, rec)
		if b.InitAt && (en.Depth < 2 || en.pcValue(vals, 1) == PCEmpty) {
			continue // init ends here; the explicit interpreter started main on arrival
		}
		alt := 0
		for j, c := range en.Choice {
			if ts.Value(vals, c) {
				alt |= 1 << j
			}
		}
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
func (en *Encoding) arrival(e *ir.Edge, next []bool, i, k int, values func(int) []bool) result.ReplayStep {
	st := result.ReplayStep{Edge: e}
	globals := make([]ir.Value, len(en.Globals))
	for j, g := range en.Globals {
		globals[j] = boolValue(ts.Value(next, g))
	}
	st.Globals = globals
	pc := en.pcValue(next, 0)
	if b := en.byPC[pc]; b != nil {
		if b.InitAt && (en.Depth < 2 || en.pcValue(next, 1) == PCEmpty) {
			if i+1 > k {
				return st // main's initial locals are not in the path
			}
			next = values(i + 1)
			b = en.byPC[en.pcValue(next, 0)]
			if b == nil {
				return st
			}
		}
		st.Locals = evalAll(next, en.Locals[0][:len(b.Proc.Locals)])
	}
	return st
}

func (en *Encoding) pcValue(vals []bool, d int) int {
	pc := 0
	for i, b := range en.PC[d] {
		if ts.Value(vals, b) {
			pc |= 1 << i
		}
	}
	return pc
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
