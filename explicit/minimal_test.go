package explicit

import (
	"fmt"
	"testing"

	"bmc/internal/progen"
	"bmc/internal/soak"
	"bmc/ir"
	"bmc/result"
)

// layerNode is an execution's end in shortestByLayers: the state, the
// thread of the last step (-1: none yet), the round it ran in and the
// context switches so far.
type layerNode struct {
	s                     *state
	last, round, switches int
}

// shortestByLayers is the oracle for the search's minimality, by other
// means: it makes every execution one step longer at a time, without
// reduction and without merging executions whose schedules differ (the
// last thread and its round), so that each layer holds every state
// reachable with that many steps within the bound and not with fewer (or
// only with more switches), with the fewest switches that reach it. It returns the steps of a shortest execution
// reaching a violation and the fewest switches among those; ok is false
// when there is none, and done is false when a layer grew beyond
// maxNodes, so that the answer is unknown.
func shortestByLayers(t *testing.T, p *ir.Program, b bound, depth, maxNodes int) (steps, switches int, ok, done bool) {
	t.Helper()
	opts := b.options()
	opts.Depth = depth
	c, err := New(p, opts)
	if err != nil {
		t.Fatal(err)
	}
	var outcomes []*state
	c.sink = func(s *state, _ stepRec) { outcomes = append(outcomes, s) }
	// seen has the fewest switches each state and schedule was reached
	// with in an earlier layer: reaching it again later, with no fewer,
	// is no shorter and no better.
	seen := map[string]int{}
	var layer []layerNode
	for _, s := range c.initialStates() {
		layer = append(layer, layerNode{s: s, last: -1})
	}
	if c.violation != nil {
		return 0, 0, true, true
	}
	for n := 1; len(layer) > 0; n++ {
		if len(layer) > maxNodes {
			return 0, 0, false, false
		}
		best := -1
		next := map[string]layerNode{}
		for _, nd := range layer {
			key := fmt.Sprintf("%s|%d|%d", nd.s.key(nil), nd.last, nd.round)
			if have, ok := seen[key]; !ok || nd.switches < have {
				seen[key] = nd.switches
			}
		}
		for _, nd := range layer {
			threads := make([]int, 0, len(nd.s.threads))
			for i := range nd.s.threads {
				threads = append(threads, i)
			}
			if a := c.atomicOwner(nd.s); a >= 0 {
				threads = []int{a}
			}
			if nd.s.init {
				threads = []int{0}
			}
			for _, th := range threads {
				if !nd.s.threads[th].alive() {
					continue
				}
				after := nd
				if !nd.s.init {
					after.last = th
					switch {
					case nd.last < 0:
						after.round = 1
					case th != nd.last:
						after.switches++
						if th < nd.last {
							after.round++
						}
					}
					if b.switches >= 0 && after.switches > b.switches || b.rounds > 0 && after.round > b.rounds {
						continue
					}
				}
				top := nd.s.threads[th].top()
				for _, e := range top.proc.Nodes[top.pc].Out {
					outcomes, c.violation, c.failed = nil, nil, false
					c.executing = stepRec{kind: recStep, thread: int16(th), edge: int32(e.ID)}
					c.step(nd.s, th, e, func(x *state) { c.arrive(nd.s, x, th, c.executing) })
					if c.violation != nil {
						if best < 0 || after.switches < best {
							best = after.switches
						}
						continue
					}
					for _, o := range outcomes {
						key := fmt.Sprintf("%s|%d|%d", o.key(nil), after.last, after.round)
						if have, ok := seen[key]; ok && have <= after.switches {
							continue
						}
						if have, ok := next[key]; !ok || after.switches < have.switches {
							next[key] = layerNode{o, after.last, after.round, after.switches}
						}
					}
				}
			}
		}
		if best >= 0 {
			return n, best, true, true
		}
		layer = layer[:0]
		for _, nd := range next {
			layer = append(layer, nd)
		}
	}
	return 0, 0, false, true
}

// minimalityBounds are the scheduling modes the minimality tests cover.
var minimalityBounds = []bound{{-1, 0}, {0, 0}, {1, 0}, {2, 0}, {3, 0}, {-1, 1}, {-1, 2}, {-1, 3}}

// TestTracesAreShortest: the first violation found has the fewest steps,
// and under a bound the fewest context switches among those, with and
// without the reduction (with neither bound the switches are not
// minimized). The hand-checked cases pin the oracle down as well.
func TestTracesAreShortest(t *testing.T) {
	cases := []struct {
		name, src       string
		bound           bound
		steps, switches int // hand-checked; -1: not checked by hand
	}{
		// See the file's comment: p0 sets turn, p1 enters, p0 enters.
		{"peterson_buggy", "", bound{2, 0}, 13, 2},
		{"peterson_buggy", "", bound{-1, 2}, 13, 2},
		{"peterson_buggy", "", bound{1, 0}, -1, -1},
		// Two steps of init, then p2 enters (round 1; p0 and p1 pass),
		// then p0 (round 2): one switch, not the three contexts the rounds
		// pass through.
		{"exclusion", exclusionProg, bound{-1, 2}, 5, 1},
		{"exclusion", exclusionProg, bound{-1, 1}, -1, -1},
		{"exclusion", exclusionProg, bound{1, 0}, 5, 1},
		// Init, p0 enters, p2 (waiting for it) enters, p0 checks: two
		// switches, where the rounds pass through four contexts.
		{"handoff", handoffProg, bound{-1, 2}, 6, 2},
		{"handoff", handoffProg, bound{2, 0}, 6, 2},
		{"handoff", handoffProg, bound{-1, 1}, -1, -1},
		// Init, then a writes, b copies, a checks: two switches.
		{"race", raceProg, bound{2, 0}, 5, 2},
		{"race", raceProg, bound{-1, 2}, 5, 2},
		// Init, b's write of g, a's check: b's thread-local steps after
		// its write are never taken, so b's way is shorter than c's.
		{"local tail", localTailProg, bound{1, 0}, 4, 1},
		{"local tail", localTailProg, bound{-1, 2}, 4, 1},
		{"local tail", localTailProg, bound{-1, 0}, 4, -1},
	}
	for _, tc := range cases {
		t.Run(tc.name+" "+tc.bound.String(), func(t *testing.T) {
			var p *ir.Program
			if tc.src == "" {
				p = loadFile(t, tc.name+".bpl", "")
			} else {
				p = loadText(t, tc.name+".bpl", tc.src, ir.Options{})
			}
			steps, switches, ok, _ := shortestByLayers(t, p, tc.bound, DefaultOptions().Depth, 1_000_000)
			if tc.steps >= 0 && (!ok || steps != tc.steps || tc.switches >= 0 && switches != tc.switches) {
				t.Fatalf("oracle: %d steps, %d switches (found %v); checked by hand: %d, %d", steps, switches, ok, tc.steps, tc.switches)
			}
			checkShortest(t, p, tc.bound, DefaultOptions().Depth, steps, switches, ok)
		})
	}
}

// exclusionProg fails when p2 enters before p0.
const exclusionProg = `decl in0, in2;
void init() begin in0, in2 := F, F; end
thread void p0() begin in0 := T; assert(!in2); end
thread void p1() begin skip; end
thread void p2() begin in2 := T; end`

// handoffProg fails when p2 enters after p0 and before p0's check.
const handoffProg = `decl in0, in2;
void init() begin in0, in2 := F, F; end
thread void p0() begin in0 := T; assert(!in2); end
thread void p1() begin skip; end
thread void p2() begin assume(in0); in2 := T; end`

// localTailProg: b sets g in one step, then takes thread-local steps; c
// takes thread-local steps, then sets g.
const localTailProg = `decl g;
void init() begin g := F; end
thread void a() begin assert(!g); end
thread void b() begin decl x, y; g := T; y := x; x := y; y := x; end
thread void c() begin decl z; z := T; z := !z; g := T; end`

// checkShortest compares the explicit search, with and without the
// reduction, against the oracle's answer.
func checkShortest(t *testing.T, p *ir.Program, b bound, depth, steps, switches int, ok bool) {
	t.Helper()
	for _, reduce := range []bool{true, false} {
		opts := b.options()
		opts.Depth, opts.NoReduction = depth, !reduce
		res := runExplicit(t, p, opts)
		switch {
		case res.Verdict == result.Unsafe && !ok:
			t.Fatalf("reduction %v: a violation the oracle does not find:\n%s", reduce, traceText(res.Trace))
		case res.Verdict != result.Unsafe && ok:
			t.Fatalf("reduction %v: %s %v; the oracle finds a violation in %d steps", reduce, res.Verdict, res.Limits, steps)
		case !ok:
		case res.Trace.Statements() != steps:
			t.Fatalf("reduction %v: trace of %d steps, the oracle's has %d:\n%s", reduce, res.Trace.Statements(), steps, traceText(res.Trace))
		case (b.switches >= 0 || b.rounds > 0) && res.Trace.Switches != switches:
			t.Fatalf("reduction %v: trace with %d switches, the oracle's has %d:\n%s", reduce, res.Trace.Switches, switches, traceText(res.Trace))
		}
	}
}

// TestRandomTracesAreShortest compares with the oracle on random loop-free
// programs in every scheduling mode.
func TestRandomTracesAreShortest(t *testing.T) {
	seeds := soak.Seeds(30, 180) // a sample; make soak runs more
	if testing.Short() {
		seeds = 20
	}
	const depth = 3
	compared, unsafe := 0, 0
	for seed := int64(1); seed <= int64(seeds); seed++ {
		cfg := progen.DefaultConfig()
		cfg.Stmts, cfg.Bounded = 3, true
		src := progen.Generate(seed, cfg)
		p := loadText(t, fmt.Sprintf("seed%d.bpl", seed), src, ir.Options{})
		for _, b := range minimalityBounds {
			steps, switches, ok, done := shortestByLayers(t, p, b, depth, 20_000)
			if !done {
				continue
			}
			t.Run(fmt.Sprintf("seed%d %s", seed, b), func(t *testing.T) {
				checkShortest(t, p, b, depth, steps, switches, ok)
			})
			compared++
			if ok {
				unsafe++
			}
		}
	}
	// Both outcomes, and enough comparisons, or the test proves little.
	if compared < seeds || unsafe == 0 || unsafe == compared {
		t.Fatalf("%d comparisons, %d unsafe", compared, unsafe)
	}
	t.Logf("%d comparisons, %d unsafe", compared, unsafe)
}
