package encode

import "bmc/ir"

// modRef computes, per procedure, the shared bits (globals, then locks)
// it reads or writes, itself or through the procedures it calls (ref),
// and those it writes (mod): a summary relates only those, as Moped's
// and Getafix's do, so that the bits a procedure never touches are
// neither copied into its predicates nor enumerated in its contexts.
func modRef(p *ir.Program) (ref, mod map[*ir.Proc][]bool) {
	n := len(p.Globals) + len(p.Locks)
	ref, mod = map[*ir.Proc][]bool{}, map[*ir.Proc][]bool{}
	callees := map[*ir.Proc][]*ir.Proc{}
	for _, pr := range p.Procs {
		r, m := make([]bool, n), make([]bool, n)
		var expr func(e *ir.Expr)
		expr = func(e *ir.Expr) {
			if e == nil {
				return
			}
			if e.Var != nil && e.Var.Global {
				r[e.Var.Index] = true
			}
			expr(e.X)
			expr(e.Y)
		}
		expr(pr.Enforce)
		for _, node := range pr.Nodes {
			for _, e := range node.Out {
				expr(e.Guard)
				expr(e.Constrain)
				expr(e.Cond)
				for _, x := range append(append([]*ir.Expr(nil), e.Values...), e.Args...) {
					expr(x)
				}
				for _, t := range e.Targets {
					if t != nil && t.Global {
						r[t.Index], m[t.Index] = true, true
					}
				}
				if e.Lock != nil {
					r[len(p.Globals)+e.Lock.Index], m[len(p.Globals)+e.Lock.Index] = true, true
				}
				if e.Kind == ir.Call && !e.Spawn {
					callees[pr] = append(callees[pr], e.Callee)
				}
			}
		}
		ref[pr], mod[pr] = r, m
	}
	for changed := true; changed; {
		changed = false
		for _, pr := range p.Procs {
			for _, q := range callees[pr] {
				for i := 0; i < n; i++ {
					if ref[q][i] && !ref[pr][i] {
						ref[pr][i], changed = true, true
					}
					if mod[q][i] && !mod[pr][i] {
						mod[pr][i], changed = true, true
					}
				}
			}
		}
	}
	return ref, mod
}
