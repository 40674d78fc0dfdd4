package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"bmc/solver"
	"bmc/ts"
)

// TestForwardReachRandom decides random systems (with constraints, free
// and fixed initial values) by reachability on decision diagrams and
// checks each answer against the breadth-first search of
// pdrReachDepth: a witness replays and is no shorter than the shortest
// path, and "unreachable" only where nothing is.
func TestForwardReachRandom(t *testing.T) {
	t.Parallel()
	const systems = 200
	r := rand.New(rand.NewPCG(29, 4))
	var sat, unsat int
	for i := range systems {
		sys, target, want := pdrRandomCase(r)
		what := fmt.Sprintf("system %d", i)
		p := ForwardReach(context.Background(), sys, ProofTask{Target: target})
		switch {
		case want < 0 && p.Status != solver.Unsat:
			t.Errorf("%s: %v (%s), want unsat", what, p.Status, p.Reason)
		case want >= 0 && (p.Status != solver.Sat || p.Bound < want):
			t.Errorf("%s: %v at %d (%s), want sat at %d or later", what, p.Status, p.Bound, p.Reason, want)
		case p.Status == solver.Sat:
			if err := pdrReplay(sys, p.Witness, target, p.Bound); err != nil {
				t.Errorf("%s: the witness does not replay: %v", what, err)
			}
		}
		if want < 0 {
			unsat++
		} else {
			sat++
		}
	}
	t.Logf("%d reachable, %d unreachable", sat, unsat)
}

// TestForwardReachThreads splits the steps by a scheduler input: two
// one-hot rings, each turned by its own thread, and a target that needs
// both to turn.
func TestForwardReachThreads(t *testing.T) {
	t.Parallel()
	s := ts.New()
	sched := s.NewInput("sched")
	var hot [2][]ts.Lit
	for k := range hot {
		hot[k] = []ts.Lit{s.NewLatch(fmt.Sprintf("r%d.0", k), ts.Init1), s.NewLatch(fmt.Sprintf("r%d.1", k), ts.Init0), s.NewLatch(fmt.Sprintf("r%d.2", k), ts.Init0)}
		mine := sched
		if k == 0 {
			mine = sched.Not()
		}
		for i := range hot[k] {
			s.SetNext(hot[k][i], s.Ite(mine, hot[k][(i+2)%3], hot[k][i]))
		}
	}
	th := &Threads{Sched: []ts.Lit{sched}, Care: ts.True}
	for _, c := range []struct {
		name   string
		target ts.Lit
		status solver.Status
	}{
		{"both rings at 2", s.And(hot[0][2], hot[1][2]), solver.Sat},
		{"a ring with two hot", s.Ors(s.And(hot[0][0], hot[0][1]), s.And(hot[1][1], hot[1][2])), solver.Unsat},
	} {
		p := ForwardReach(context.Background(), s, ProofTask{Target: c.target, Threads: th})
		if p.Status != c.status {
			t.Errorf("%s: %v (%s), want %v", c.name, p.Status, p.Reason, c.status)
			continue
		}
		if p.Status == solver.Sat {
			if err := pdrReplay(s, p.Witness, c.target, p.Bound); err != nil {
				t.Errorf("%s: the witness does not replay: %v", c.name, err)
			}
			if p.Bound < 4 {
				t.Errorf("%s: %d steps, want 4 or more", c.name, p.Bound)
			}
		}
	}
}

// TestCollectionsChangeNothing decides random systems of two threads
// by reachability, fair cycles and the pairwise views with a collection
// at every image, and checks each answer against the one without: a
// collection renumbers the nodes, and a diagram it does not know of (a
// step's relation copied before the fixpoint) would be another one
// after it.
func TestCollectionsChangeNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 7))
	for i := range 60 {
		sys, target, _ := pdrRandomCase(r)
		sched := sys.NewInput("sched")
		th := &Threads{Sched: []ts.Lit{sched}, Care: ts.True}
		run := func() string {
			reach := ForwardReach(context.Background(), sys, ProofTask{Target: target, Threads: th})
			cycles := FairCycles(context.Background(), sys, CycleTask{Threads: th, Enabled: []ts.Lit{ts.True, ts.True},
				Stutter: ts.False, Fairness: StrongFairness})
			return fmt.Sprintf("reach %v at %d, cycles %v among %.0f", reach.Status, reach.Bound, cycles.Status, cycles.Reached)
		}
		want := run()
		collectAlways = true
		got := run()
		collectAlways = false
		if got != want {
			t.Errorf("system %d: %s with a collection at every image, %s without", i, got, want)
		}
	}
}
