package engine

import (
	"context"
	"errors"
	"fmt"
	"io"

	"bmc/bdd"
	"bmc/ts"
)

// RoundTask is the inductive case of amplification for every K at once,
// on a system that counts no rounds (the interleaving product started at
// BASE).
type RoundTask struct {
	Target   ts.Lit   // the violation
	First    ts.Lit   // true exactly in the first state
	Envelope ts.Lit   // the first state's condition, which every step keeps
	Sched    []ts.Lit // the inputs that choose the thread of a step, in round-robin order
	Progress io.Writer
}

// AmplifyRounds decides the inductive case of amplification
// (kinduction-with-amplification, obligation (7) with Eqn. 9) for K = 1,
// 2, ... by decision diagrams, rounds being the algorithm's and not the
// system's: B_0 are the violating states and B_(r+1) the states from
// which a round (thread 0's context, then thread 1's, ... each any
// number of its steps) reaches B_r or a violation on the way, each
// context a fixpoint of one thread's steps taken backward from the last
// thread to the first. M^K of the paper is the envelope's first states
// in B_K, and the obligation at K holds when M^(K+1) - M^K is empty.
// B_(K+1) grows from B_K by one round, so every K costs one round more,
// where a system that counts rounds needs a fixpoint of its own per K
// with the schedule in every set (AmplifyDiagrams, which re-checks
// this).
//
// decide is called with each K in turn and a state of the difference
// (latch values of sys, a counterexample to induction), or nil when the
// obligation holds; it says whether to go on with K+1. second takes the
// diagrams' second variable order.
func AmplifyRounds(ctx context.Context, sys *ts.System, t RoundTask, second bool, decide func(k int, cti []bool) (bool, error)) error {
	return withDiagrams(ctx, sys, t.Sched, t.Envelope, second, func(d *diagrams) error {
		m := d.m
		start := m.And(d.lit(t.First), d.care)
		for _, l := range sys.Latches() {
			if l.Lit != t.First {
				start = m.And(start, d.initial(l))
			}
		}
		// A violation by a step belongs to the context of the thread
		// that takes it; one that stands in a state (an error label
		// arrived at) to every context.
		failing := make([]bdd.Node, len(d.parts))
		violating := d.care
		for p, part := range d.parts {
			failing[p] = m.And(m.Exists(m.Restrict(d.lit(t.Target), part.at), d.inputs), d.care)
			violating = m.And(violating, failing[p])
		}
		rounds := []bdd.Node{violating} // B_0, B_1, ...
		d.keep = append(d.keep, &start)
		for p := range failing {
			d.keep = append(d.keep, &failing[p])
		}
		for k := 1; ; k++ {
			for len(rounds) < k+2 {
				b := rounds[len(rounds)-1]
				roots := []*bdd.Node{&b}
				for i := range rounds {
					roots = append(roots, &rounds[i])
				}
				d.keep = append(d.keep, roots...)
				err := d.round(&b, failing)
				d.keep = d.keep[:len(d.keep)-len(roots)]
				if err != nil {
					return err
				}
				rounds = append(rounds, b)
				if t.Progress != nil {
					fmt.Fprintf(t.Progress, "amplify: diagrams: %d rounds back, %d nodes\n", len(rounds)-1, m.Nodes())
				}
			}
			var cti []bool
			if diff := m.Diff(m.And(start, rounds[k+1]), rounds[k]); diff != bdd.False {
				at := m.Witness(diff)
				cti = make([]bool, len(sys.Latches()))
				for i, l := range sys.Latches() {
					cti[i] = at[d.level[l.Lit.Var()]]
				}
			}
			more, err := decide(k, cti)
			if err != nil || !more {
				return err
			}
		}
	})
}

// round takes *b, the states at the start of a round from which the
// violation is reachable within some rounds, one round further back:
// from the last thread's context to the first, each the fixpoint of the
// thread's steps backward within care from *b and the states where its
// next step fails (failing, by part).
func (d *diagrams) round(b *bdd.Node, failing []bdd.Node) error {
	m := d.m
	collected := m.Nodes()
	for p := len(d.parts) - 1; p >= 0; p-- {
		part := d.parts[p]
		*b = m.Or(*b, failing[p])
		for f := *b; ; {
			if d.ctx.Err() != nil {
				return errors.New(stopReason(d.ctx))
			}
			if d.collectDue(collected) {
				d.gc(append([]*bdd.Node{&f}, d.keep...))
				collected = m.Nodes()
			}
			f = m.Diff(m.RenameAndExists(part.rel, f, part.pre), *b)
			if f == bdd.False {
				break
			}
			*b = m.Or(*b, f)
		}
	}
	return nil
}
