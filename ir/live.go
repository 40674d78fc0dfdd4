package ir

// LiveLocals marks, per node of pr and local of pr, whether the local's
// value at the node may still be read: on some path from the node a step
// reads it before any step writes it. A procedure with an enforce clause
// reads its locals everywhere. A call's arguments and a return's values
// are reads; a call's result targets are writes.
func LiveLocals(pr *Proc) [][]bool {
	live := make([][]bool, len(pr.Nodes))
	for n := range live {
		live[n] = make([]bool, len(pr.Locals))
		if pr.Enforce != nil {
			for x := range live[n] {
				live[n][x] = true
			}
		}
	}
	if pr.Enforce != nil {
		return live
	}
	reads := map[*Edge][]int{}
	writes := map[*Edge][]int{}
	for _, node := range pr.Nodes {
		for _, e := range node.Out {
			targets := map[*Var]bool{}
			for _, t := range e.Targets {
				if t != nil {
					targets[t] = true
					if !t.Global {
						writes[e] = append(writes[e], t.Index)
					}
				}
			}
			for _, x := range append(append([]*Expr{e.Guard, e.Constrain, e.Cond}, e.Values...), e.Args...) {
				x.Walk(func(y *Expr) {
					if y.Var != nil && !y.Var.Global && (y.Op == OpVar || y.Op == OpPrimed && !targets[y.Var]) {
						reads[e] = append(reads[e], y.Var.Index)
					}
				})
			}
		}
	}
	// Backward to a fixpoint: a node's locals live are those its steps
	// read, and those live after a step that it does not write.
	for changed := true; changed; {
		changed = false
		for n := len(pr.Nodes) - 1; n >= 0; n-- {
			for _, e := range pr.Nodes[n].Out {
				var after []bool
				if e.Kind != Return && e.Kind != EndThread { // a spawn goes on at e.To too
					after = append([]bool(nil), live[e.To]...)
				}
				for _, x := range writes[e] {
					if after != nil {
						after[x] = false
					}
				}
				for _, x := range reads[e] {
					if !live[n][x] {
						live[n][x], changed = true, true
					}
				}
				for x, l := range after {
					if l && !live[n][x] {
						live[n][x], changed = true, true
					}
				}
			}
		}
	}
	return live
}
