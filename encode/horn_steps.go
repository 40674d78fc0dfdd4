package encode

import (
	"fmt"

	"bmc/chc"
	"bmc/ir"
	"bmc/result"
	"bmc/ts"
)

// Steps reads a derivation of a query as the program steps it executes
// (for the explicit interpreter to replay) and the largest number of
// frames the thread's stack holds on the way. The steps of an
// activation come from the chain of block clauses back to its entry;
// a call that returned is its summary's derivation, walked in place; the
// calling context of the violating activation is the derivation of its
// call atom.
func (h *Horn) Steps(d *chc.Derivation) ([]result.ReplayStep, int, error) {
	w := &hornWalk{h: h, depth: 1, most: 1}
	if k := h.kinds[d.Clause]; k == nil || k.kind != hornQuery {
		return nil, 0, fmt.Errorf("witness: the derivation does not end in a violation")
	}
	if err := w.activation(d.Body[0], true); err != nil {
		return nil, 0, err
	}
	if err := w.block(d, true); err != nil {
		return nil, 0, err
	}
	return w.out, w.most, nil
}

type hornWalk struct {
	h           *Horn
	out         []result.ReplayStep
	depth, most int
}

// activation walks the steps of the activation whose cut point atom d
// derives, up to that point; with context, the steps before the
// activation's call too.
func (w *hornWalk) activation(d *chc.Derivation, context bool) error {
	// The chain of blocks back to the entry, walked from there.
	var chain []*chc.Derivation
	for {
		k := w.h.kinds[d.Clause]
		if k == nil {
			return fmt.Errorf("witness: clause %s is not the program's", d.Clause.Name)
		}
		if k.kind == hornStart {
			break
		}
		if k.kind == hornEnter {
			if context {
				if err := w.callContext(d.Body[0]); err != nil {
					return err
				}
			}
			break
		}
		chain = append(chain, d)
		d = d.Body[0]
	}
	for i := len(chain) - 1; i >= 0; i-- {
		n := chain[i]
		if err := w.block(n, false); err != nil {
			return err
		}
		if k := w.h.kinds[n.Clause]; k.kind == hornReturn {
			w.enter()
			if err := w.summary(n.Body[1]); err != nil {
				return err
			}
			w.depth--
			// The return's step arrives in the caller's frame.
			last := &w.out[len(w.out)-1]
			last.Globals = w.globals(n.Values, k.region.proc, k.shared)
			last.Locals = values(n.Values, k.locals)
		}
	}
	return nil
}

func (w *hornWalk) enter() {
	w.depth++
	w.most = max(w.most, w.depth)
}

// callContext walks the steps up to and including a call (d derives
// its call atom); the callee's frame is then on top.
func (w *hornWalk) callContext(d *chc.Derivation) error {
	if k := w.h.kinds[d.Clause]; k == nil || k.kind != hornCall {
		return fmt.Errorf("witness: a call atom derived by clause %s", d.Clause.Name)
	}
	if err := w.activation(d.Body[0], true); err != nil {
		return err
	}
	if err := w.block(d, false); err != nil {
		return err
	}
	w.enter()
	return nil
}

// summary walks the steps of a call that returns (d derives its
// summary atom), the return included.
func (w *hornWalk) summary(d *chc.Derivation) error {
	if k := w.h.kinds[d.Clause]; k == nil || k.kind != hornSummary {
		return fmt.Errorf("witness: a summary atom derived by clause %s", d.Clause.Name)
	}
	if err := w.activation(d.Body[0], false); err != nil {
		return err
	}
	return w.block(d, false)
}

// block walks the steps of d's block from its cut point (with
// violation, up to the violation).
func (w *hornWalk) block(d *chc.Derivation, violation bool) error {
	k := w.h.kinds[d.Clause]
	p := w.h.prog
	steps, err := k.region.steps(d.Values, violation, func(vals []bool, g []ts.Lit) []ir.Value {
		return w.globals(vals, k.region.proc, g)
	}, func(e *ir.Edge) bool { return e.Proc == p.Init && e.To == p.InitStop })
	w.out = append(w.out, steps...)
	return err
}

func values(vals []bool, ls []ts.Lit) []ir.Value {
	out := make([]ir.Value, len(ls))
	for i, l := range ls {
		out[i] = ir.False
		if ts.Value(vals, l) {
			out[i] = ir.True
		}
	}
	return out
}

// globals are the values of the globals among shared (globals first)
// that pr's predicates track; the others are unknown.
func (w *hornWalk) globals(vals []bool, pr *ir.Proc, shared []ts.Lit) []ir.Value {
	out := values(vals, shared[:len(w.h.prog.Globals)])
	for i := range out {
		if !w.h.ref[pr][i] {
			out[i] = ir.Unknown
		}
	}
	return out
}
