package ir

// OwnWrites reports whether p has three threads or more, one instance
// each, each of which writes only globals no other thread writes (init
// aside), with no locks and no thread started by another: Burns' and
// the flag-based mutual exclusion, where a thread's flag is its own.
// There a pair of threads sees every write to the globals it holds, and
// the reachable states seen through each pair (view abstraction) grow
// polynomially in the threads where the reachable states grow
// exponentially.
func OwnWrites(p *Program) bool {
	if len(p.Threads) < 3 || len(p.Locks) > 0 {
		return false
	}
	writer := map[*Var]int{}
	for t, spec := range p.Threads {
		if spec.Count != 1 || spec.Unbounded {
			return false
		}
		for _, pr := range calledFrom(spec.Proc) {
			for _, nd := range pr.Nodes {
				for _, e := range nd.Out {
					if e.Kind == Fork || e.Kind == Call && e.Spawn || len(e.PassiveTargets) > 0 {
						return false
					}
					for _, v := range e.Targets {
						if v == nil || !v.Global {
							continue
						}
						if w, ok := writer[v]; ok && w != t {
							return false
						}
						writer[v] = t
					}
				}
			}
		}
	}
	return true
}

// calledFrom is pr and the procedures its calls reach.
func calledFrom(pr *Proc) []*Proc {
	seen := map[*Proc]bool{pr: true}
	out := []*Proc{pr}
	for i := 0; i < len(out); i++ {
		for _, nd := range out[i].Nodes {
			for _, e := range nd.Out {
				if e.Kind == Call && !seen[e.Callee] {
					seen[e.Callee] = true
					out = append(out, e.Callee)
				}
			}
		}
	}
	return out
}
