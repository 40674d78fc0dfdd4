package explicit

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"bmc/internal/progen"
	"bmc/ir"
	"bmc/result"
)

var (
	strong = result.StrongFairness
	weak   = result.WeakFairness
	none   = result.NoFairness
	allF   = []result.Fairness{strong, weak, none}
)

// Small programs for the livelock search, each with the loop it has.
const (
	// spinAlone: the thread that could end the spin is gone; the spin
	// repeats, fair under any fairness.
	spinAlone = `decl g;
		void init() begin g := F; end
		thread void spin() begin while (!g) do skip; od end
		thread void setter() begin g := F; end`
	// spinStarving: the spin repeats only while setter, enabled, never
	// runs.
	spinStarving = `decl g;
		void init() begin g := F; end
		thread void spin() begin while (!g) do skip; od end
		thread void setter() begin g := T; end`
	// heldThroughout: waiter waits for a lock that holder keeps while it
	// spins: waiter is blocked at every configuration of the loop.
	heldThroughout = `lock m;
		thread void holder() begin acquire(m); while (T) do skip; od end
		thread void waiter() begin acquire(m); release(m); end`
	// releasedInLoop: cycler takes and gives back the lock waiter waits
	// for; waiter is blocked at some configurations of the loop, not at
	// all. Once it has the lock it stands at assume(F), enabled but
	// unable to step, so no fair loop follows.
	releasedInLoop = `lock m;
		thread void cycler() begin while (T) do acquire(m); release(m); od end
		thread void waiter() begin acquire(m); assume(F); end`
	// selfLocked: a thread waits for the lock it holds itself: it is
	// blocked for good (acquire blocks while the lock is held by any
	// thread), so the spinner loops fairly.
	selfLocked = `lock m;
		thread void spin() begin while (T) do skip; od end
		thread void self() begin acquire(m); acquire(m); end`
	// handoff: a and b pass a token back and forth, one pass per
	// context, and a flips its local x at each: the configuration comes
	// back only after two rounds.
	handoff = `decl ta, tb;
		void init() begin ta, tb := T, F; end
		thread void a() begin decl x; while (T) do while (!ta) do skip; od ta := F; x := !x; tb := T; od end
		thread void b() begin while (T) do while (!tb) do skip; od tb := F; ta := T; od end`
	// atomicFlip: b waits for g, which a sets only inside an atomic
	// section; b stands still, enabled, in every loop.
	atomicFlip = `decl g;
		void init() begin g := F; end
		thread void a() begin while (T) do atomic_begin; g := T; g := F; atomic_end; od end
		thread void b() begin assume(g); while (T) do skip; od end`
	// terminating: every execution ends.
	terminating = `decl g;
		thread void a() begin while (g) do g := F; od end
		thread void b() begin g := F; end`
	// spinForever: a single thread that loops from its first statement.
	spinForever = `decl g;
		thread void main() begin while (T) do g := !g; od end`
	// deepRecursion: recursion that the depth cuts before it ends,
	// with globals that differ at every level, so that no loop comes
	// back (a call of f at every level would be a keyframe lasso).
	deepRecursion = `decl a, b, c, d;
		void init() begin a, b, c, d := F, F, F, F; end
		thread void main() begin f(); end
		void f() begin
		  if (!a) then a := T; f();
		  else if (!b) then b := T; f();
		  else if (!c) then c := T; f();
		  else if (!d) then d := T; f(); fi fi fi fi
		end`
)

// lassoProgram loads inline source, or an example file when src names one.
func lassoProgram(t *testing.T, src string) *ir.Program {
	t.Helper()
	if strings.HasSuffix(src, ".bpl") {
		return loadFile(t, src, "")
	}
	return loadText(t, "lasso.bpl", src, ir.Options{})
}

func lassoOptions() Options {
	opts := DefaultOptions()
	opts.Depth = 4
	return opts
}

// TestLassoSearch checks the verdict on programs whose livelocks are
// known, under each fairness the case lists.
func TestLassoSearch(t *testing.T) {
	cases := []struct {
		name       string
		src        string
		stem, loop int
		livelock   []result.Fairness // the fairness under which one exists
		others     []result.Fairness // and those under which none does
	}{
		{"spin with the setter terminated", spinAlone, 1, 1, allF, nil},
		{"spin starving an enabled thread", spinStarving, 1, 1, []result.Fairness{none}, []result.Fairness{strong, weak}},
		{"spin starving, longer stem", spinStarving, 2, 2, []result.Fairness{none}, []result.Fairness{strong, weak}},
		{"waiter blocked throughout", heldThroughout, 1, 1, allF, nil},
		{"lock released in the loop", releasedInLoop, 1, 1, []result.Fairness{weak, none}, []result.Fairness{strong}},
		{"lock held by the waiting thread itself", selfLocked, 1, 1, []result.Fairness{strong, weak, none}, nil},
		{"handoff in one loop round", handoff, 1, 1, []result.Fairness{none}, []result.Fairness{strong, weak}},
		{"handoff in two loop rounds", handoff, 1, 2, allF, nil},
		{"no switch inside an atomic section", atomicFlip, 2, 1, []result.Fairness{none}, []result.Fairness{strong, weak}},
		{"terminating program", terminating, 2, 2, nil, allF},
		{"loop right after init", spinForever, 0, 1, allF, nil},
		{"no stem, loop needs the stem's writes", spinAlone, 0, 1, nil, []result.Fairness{strong, weak}},
		{"fig1a, no livelock at 1,1", "mutant_fig1a.bpl", 1, 1, []result.Fairness{none}, []result.Fairness{strong, weak}},
		{"fig1a, livelock at 2,1", "mutant_fig1a.bpl", 2, 1, allF, nil},
		{"fig1a, no stem", "mutant_fig1a.bpl", 0, 1, nil, allF},
		{"fig1b", "mutant_fig1b.bpl", 1, 1, []result.Fairness{strong}, nil},
		{"fig1b, no stem", "mutant_fig1b.bpl", 0, 1, []result.Fairness{strong}, nil},
		{"fig1c", "mutant_fig1c.bpl", 1, 1, []result.Fairness{strong}, nil},
		{"philosophers", "philosophers_trylock.bpl", 1, 1, []result.Fairness{strong}, nil},
		{"keyframe: a retry by a call that never returns", "mutant_fig1b_recursive.bpl", 1, 1, allF, nil},
		{"keyframe: the loop must start after the first call", "mutant_fig1b_recursive.bpl", 0, 1, nil, allF},
	}
	for _, tc := range cases {
		p := lassoProgram(t, tc.src)
		for _, f := range slices.Concat(tc.livelock, tc.others) {
			want := slices.Contains(tc.livelock, f)
			b := result.LassoBound{Stem: tc.stem, Loop: tc.loop, Fairness: f}
			t.Run(tc.name+" "+f.String(), func(t *testing.T) {
				res := LassoSearch(context.Background(), p, b, lassoOptions())
				switch {
				case want && res.Verdict != result.Unsafe, !want && res.Verdict != result.Safe:
					t.Fatalf("%s: %s (%v), want livelock %v", b, res.Verdict, res.Limits, want)
				case !strings.HasPrefix(res.Bounds, b.String()) || res.Engine != "explicit" || res.States == 0:
					t.Errorf("result %+v", res)
				case want:
					checkLassoTrace(t, res.Trace, f)
				}
			})
		}
	}
}

// checkLassoTrace checks the shape of a livelock trace.
func checkLassoTrace(t *testing.T, tr *result.Trace, f result.Fairness) {
	t.Helper()
	text := traceText(tr)
	if !tr.Livelock || tr.Loop < 0 || tr.Loop >= len(tr.Steps) ||
		tr.Steps[tr.Loop].Event != "loop: the steps below repeat forever" {
		t.Fatalf("livelock %v, loop at %d:\n%s", tr.Livelock, tr.Loop, text)
	}
	var loop []result.Step
	for _, s := range tr.Steps[tr.Loop:] {
		if s.Event == "" {
			loop = append(loop, s)
		}
	}
	if len(loop) == 0 || loop[0].Pos != tr.Pos || tr.File == "" {
		t.Fatalf("the loop has no step or the trace's position (%s) is not its first:\n%s", tr.Pos, text)
	}
	want := map[result.Fairness]string{strong: "(strongly fair)", weak: "(weakly fair)", none: "(fairness not required)"}[f]
	if !strings.Contains(tr.Violation, "repeat") || !strings.HasSuffix(tr.Violation, want) {
		t.Errorf("violation %q", tr.Violation)
	}
	if !strings.Contains(text, "---- loop round 1 of ") {
		t.Errorf("no loop round in the trace:\n%s", text)
	}
}

// TestLassoTrace pins down a whole trace.
func TestLassoTrace(t *testing.T) {
	p := lassoProgram(t, "mutant_fig1a.bpl")
	b := result.LassoBound{Stem: 2, Loop: 1}
	res := LassoSearch(context.Background(), p, b, lassoOptions())
	if res.Verdict != result.Unsafe {
		t.Fatalf("%s: %s", b, res.Verdict)
	}
	want := strings.Join([]string{
		"---- stem round 1 of 2 begins: Thread2 runs",
		"Thread2  g := T;  g=T",
		"Thread2  return;  Thread2 terminated",
		"---- stem round 2 of 2 begins: Thread1 runs",
		"Thread1  g := F;  g=F",
		"---- loop: the steps below repeat forever",
		"---- loop round 1 of 1 begins: Thread1 runs",
		"Thread1  while !g do  ",
		"Thread1  skip;  ",
	}, "\n")
	if got := traceText(res.Trace); got != want {
		t.Errorf("trace:\n%s\nwant:\n%s", got, want)
	}
	if v := res.Trace.Violation; v != "fair livelock: the last 2 steps repeat forever (strongly fair)" {
		t.Errorf("violation %q", v)
	}
	if res.Trace.Switches != 1 {
		t.Errorf("%d switches, want 1", res.Trace.Switches)
	}
}

// TestLassoSearchLimits: a search cut short says why (the driver turns
// the limits into advice, as for every engine).
func TestLassoSearchLimits(t *testing.T) {
	ended, cancel := context.WithDeadline(context.Background(), time.Now())
	defer cancel()
	cases := []struct {
		name      string
		src       string
		ctx       context.Context
		maxStates int
		limit     string // prefix of a limit
	}{
		{"state limit", "philosophers_trylock.bpl", context.Background(), 100, "state limit (100 states)"},
		{"context ended", "philosophers_trylock.bpl", ended, 0, "timeout"},
		{"depth", deepRecursion, context.Background(), 0, "depth bound reached (call depth 4)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := lassoOptions()
			if tc.maxStates > 0 {
				opts.MaxStates = tc.maxStates
			}
			b := result.LassoBound{Stem: 1, Loop: 1}
			res := LassoSearch(tc.ctx, lassoProgram(t, tc.src), b, opts)
			if res.Verdict != result.Unknown || len(res.Limits) == 0 || !strings.HasPrefix(res.Limits[0].String(), tc.limit) {
				t.Errorf("%s, limits %q; want unknown with %q", res.Verdict, res.Limits, tc.limit)
			}
		})
	}
}

// lassoWitness turns a livelock the search found into the steps another
// engine would give, with every value after each step.
func lassoWitness(p *ir.Program, path *lassoPath) ([]result.ReplayStep, int) {
	var steps []result.ReplayStep
	loop := 0
	for i := 1; i < len(path.states); i++ {
		if i == path.loop+1 {
			loop = len(steps)
		}
		r := path.recs[i]
		if r.kind != recStep {
			continue
		}
		a, b := path.states[i-1], path.states[i]
		st := result.ReplayStep{Thread: int(r.thread), Edge: p.Edges[r.edge], Globals: slices.Clone(b.globals)}
		if th := &b.threads[st.Thread]; !(a.init && !b.init) && th.alive() {
			st.Locals = slices.Clone(th.top().locals)
		}
		steps = append(steps, st)
	}
	return steps, loop
}

// findLasso runs the search, which must find a livelock, and returns its
// trace and witness.
func findLasso(t *testing.T, p *ir.Program, b result.LassoBound) (*result.Trace, []result.ReplayStep, int) {
	t.Helper()
	res, path := searchLasso(context.Background(), p, b, lassoOptions())
	if res.Verdict != result.Unsafe {
		t.Fatalf("%s: %s, no livelock", b, res.Verdict)
	}
	steps, loop := lassoWitness(p, path)
	return res.Trace, steps, loop
}

// TestReplayLasso replays the livelocks the search finds: the trace must
// be the search's, line for line.
func TestReplayLasso(t *testing.T) {
	cases := []struct {
		src        string
		stem, loop int
		fairness   result.Fairness
	}{
		{spinAlone, 1, 1, strong},
		{spinStarving, 1, 1, none},
		{heldThroughout, 1, 1, strong},
		{releasedInLoop, 1, 1, weak},
		{spinForever, 0, 1, strong},
		{handoff, 0, 2, weak},
		{"mutant_fig1a.bpl", 2, 1, strong},
		{"mutant_fig1b.bpl", 1, 1, strong},
		{"mutant_fig1c.bpl", 1, 2, strong},
		{"philosophers_trylock.bpl", 1, 1, strong},
		{"mutant_fig1b_recursive.bpl", 1, 1, strong},
		{"mutant_fig1b_recursive.bpl", 2, 2, none},
	}
	for _, tc := range cases {
		b := result.LassoBound{Stem: tc.stem, Loop: tc.loop, Fairness: tc.fairness}
		name := tc.src
		if !strings.HasSuffix(name, ".bpl") {
			name = strings.Fields(name)[1]
		}
		t.Run(name+" "+b.String(), func(t *testing.T) {
			p := lassoProgram(t, tc.src)
			want, steps, loop := findLasso(t, p, b)
			got, err := ReplayLasso(p, b, lassoOptions(), steps, loop)
			if err != nil {
				t.Fatalf("%v\nthe search's trace:\n%s", err, traceText(want))
			}
			if g, w := traceText(got), traceText(want); g != w || got.Loop != want.Loop ||
				got.Violation != want.Violation || got.Pos != want.Pos || got.Switches != want.Switches {
				t.Errorf("replayed (loop at %d, %q, %d switches):\n%s\nsearch's (loop at %d, %q, %d switches):\n%s",
					got.Loop, got.Violation, got.Switches, g, want.Loop, want.Violation, want.Switches, w)
			}
		})
	}
}

// TestReplayLassoRejects: a witness that is not a livelock within the
// bound is rejected, saying why.
func TestReplayLassoRejects(t *testing.T) {
	cases := []struct {
		name     string
		src      string
		found    result.LassoBound // where the search finds the witness
		tamper   func(steps []result.ReplayStep, loop int) ([]result.ReplayStep, int)
		replayed result.LassoBound
		want     string
	}{
		{"loop that does not close", spinAlone, result.LassoBound{Stem: 1, Loop: 1},
			func(s []result.ReplayStep, loop int) ([]result.ReplayStep, int) { return s[:len(s)-1], loop },
			result.LassoBound{Stem: 1, Loop: 1}, "does not end in the configuration it started from"},
		{"stem too long", "mutant_fig1a.bpl", result.LassoBound{Stem: 2, Loop: 1}, nil,
			result.LassoBound{Stem: 1, Loop: 1}, "the stem needs 2 rounds, more than the bound of 1"},
		{"loop too long", "mutant_fig1b.bpl", result.LassoBound{Stem: 1, Loop: 1},
			func(s []result.ReplayStep, loop int) ([]result.ReplayStep, int) {
				return slices.Concat(s, s[loop:]), loop // the loop twice
			},
			result.LassoBound{Stem: 1, Loop: 1}, "the loop needs 2 rounds"},
		{"unfair under strong fairness", spinStarving, result.LassoBound{Stem: 1, Loop: 1, Fairness: none}, nil,
			result.LassoBound{Stem: 1, Loop: 1}, "not strongly fair: setter takes no step in it"},
		{"unfair under weak fairness", spinStarving, result.LassoBound{Stem: 1, Loop: 1, Fairness: none}, nil,
			result.LassoBound{Stem: 1, Loop: 1, Fairness: weak}, "not weakly fair: setter takes no step in it and is never blocked"},
		{"released lock under strong fairness", releasedInLoop, result.LassoBound{Stem: 1, Loop: 1, Fairness: weak}, nil,
			result.LassoBound{Stem: 1, Loop: 1}, "not strongly fair: waiter takes no step in it and is not blocked throughout it"},
		{"loop during init", spinAlone, result.LassoBound{Stem: 1, Loop: 1},
			func(s []result.ReplayStep, loop int) ([]result.ReplayStep, int) { return s, 0 },
			result.LassoBound{Stem: 1, Loop: 1}, "the loop begins before init has ended"},
		{"empty loop", spinAlone, result.LassoBound{Stem: 1, Loop: 1},
			func(s []result.ReplayStep, loop int) ([]result.ReplayStep, int) { return s[:loop], loop },
			result.LassoBound{Stem: 1, Loop: 1}, "the loop has no step"},
		{"values the program cannot give", spinAlone, result.LassoBound{Stem: 1, Loop: 1},
			func(s []result.ReplayStep, loop int) ([]result.ReplayStep, int) {
				s = slices.Clone(s)
				s[0].Globals = []ir.Value{ir.True} // g := F
				return s, loop
			},
			result.LassoBound{Stem: 1, Loop: 1}, "no execution of the statement gives the witness's values"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := lassoProgram(t, tc.src)
			_, steps, loop := findLasso(t, p, tc.found)
			if _, err := ReplayLasso(p, tc.found, lassoOptions(), steps, loop); err != nil {
				t.Fatalf("the witness itself does not replay: %v", err)
			}
			if tc.tamper != nil {
				steps, loop = tc.tamper(steps, loop)
			}
			_, err := ReplayLasso(p, tc.replayed, lassoOptions(), steps, loop)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one with %q", err, tc.want)
			}
		})
	}
}

// TestLassoOnRandomPrograms runs the search on random looping programs
// with and without cutting loops short (NoReduction): the verdicts must
// agree, a livelock under a fairness must be one under every weaker
// fairness, and every livelock found must replay to the same trace.
func TestLassoOnRandomPrograms(t *testing.T) {
	seeds := 24
	if testing.Short() {
		seeds = 8
	}
	counts := map[result.Verdict]int{}
	for seed := int64(1); seed <= int64(seeds); seed++ {
		cfg := progen.DefaultConfig()
		cfg.Globals, cfg.Locals, cfg.Stmts = 2, 1, 3
		cfg.WithHelper = seed%3 == 0
		cfg.SpinWaits = true
		src := progen.Generate(seed, cfg)
		p := loadText(t, fmt.Sprintf("seed%d.bpl", seed), src, ir.Options{})
		b := result.LassoBound{Stem: 1, Loop: 1}
		if seed%4 == 0 {
			b = result.LassoBound{Stem: 0, Loop: 2}
		}
		found := false // under a stronger fairness
		for _, f := range allF {
			b.Fairness = f
			opts := lassoOptions()
			opts.MaxStates = 10_000
			cut, path := searchLasso(context.Background(), p, b, opts)
			opts.NoReduction = true
			full := LassoSearch(context.Background(), p, b, opts)
			if cut.Verdict == result.Unknown || full.Verdict == result.Unknown {
				continue
			}
			counts[cut.Verdict]++
			switch {
			case cut.Verdict != full.Verdict:
				t.Fatalf("seed %d, %s: %s with loops cut short, %s without\n%s", seed, b, cut.Verdict, full.Verdict, src)
			case found && cut.Verdict != result.Unsafe:
				t.Fatalf("seed %d, %s: no livelock, but one under a stronger fairness\n%s", seed, b, src)
			case cut.Verdict == result.Unsafe:
				found = true
				steps, loop := lassoWitness(p, path)
				tr, err := ReplayLasso(p, b, opts, steps, loop)
				if err != nil {
					t.Fatalf("seed %d, %s: %v\n%s\n%s", seed, b, err, traceText(cut.Trace), src)
				}
				if traceText(tr) != traceText(cut.Trace) {
					t.Fatalf("seed %d, %s: replayed:\n%s\nfound:\n%s", seed, b, traceText(tr), traceText(cut.Trace))
				}
			}
		}
	}
	// Both outcomes, or the test proves little.
	if counts[result.Safe] == 0 || counts[result.Unsafe] == 0 {
		t.Fatalf("verdicts %v: want both", counts)
	}
	t.Logf("verdicts %v", counts)
}

// TestReplayLassoStepErrors: a witness whose step cannot be taken is
// rejected, saying why.
func TestReplayLassoStepErrors(t *testing.T) {
	cases := []struct {
		name, src string
		depth     int
		want      string
	}{
		{"violation", `thread void main() begin assert(F); end`, 4, "the step is a violation (assertion failed: assert(F);)"},
		{"release not held", `lock m; thread void main() begin release(m); end`, 4, "the step is a violation (release of lock m"},
		{"call too deep", `thread void main() begin f(); end void f() begin f(); end`, 1, "the call goes beyond the call depth 1"},
		{"blocked", `lock m; thread void main() begin acquire(m); acquire(m); end`, 4, "no execution of the statement gives the witness's values"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := lassoProgram(t, tc.src)
			opts := lassoOptions()
			opts.Depth = tc.depth
			// main's first two statements, each taken its first way on.
			var steps []result.ReplayStep
			proc := p.Threads[0].Proc
			for pc := proc.Entry; pc >= 0 && len(steps) < 2; {
				e := proc.Nodes[pc].Out[0]
				steps = append(steps, result.ReplayStep{Thread: 0, Edge: e})
				pc = e.To
			}
			_, err := ReplayLasso(p, result.LassoBound{Stem: 0, Loop: 1}, opts, steps, 0)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one with %q", err, tc.want)
			}
		})
	}
}

// TestKeyframeComesBack: a thread's stack may be deeper at the end of a
// loop, the frames from its keyframe (the lowest frame on top in the
// loop) up being those at the start, the keyframe's call site aside;
// never lower, and never with a different frame above the keyframe.
func TestKeyframeComesBack(t *testing.T) {
	p := lassoProgram(t, "mutant_fig1b_recursive.bpl")
	thread1, retry := p.Threads[0].Proc, p.Procs[1]
	if retry.Name != "retry" {
		t.Fatalf("procedure %s, want retry", retry.Name)
	}
	// call is the ID of the call of retry from retry, entry that of the
	// call from Thread1.
	call, entry := -1, -1
	for _, e := range p.Edges {
		if e.Kind == ir.Call && e.Callee == retry {
			if e.Proc == retry {
				call = e.ID
			} else {
				entry = e.ID
			}
		}
	}
	fr := func(pr *ir.Proc, pc, call int, locals ...ir.Value) *frame {
		return &frame{proc: pr, pc: pc, call: call, locals: locals}
	}
	base := fr(thread1, 1, -1)
	top := fr(retry, retry.Entry, entry)
	waiting := fr(retry, 2, entry)
	stack := func(frames ...*frame) *state {
		s := &state{globals: []ir.Value{ir.True}, threads: []thread{{entry: thread1, frames: frames}}}
		return s
	}
	start := stack(base, top)
	cases := []struct {
		name string
		end  *state
		dip  int
		want bool
	}{
		{"the same stack", stack(base, top), 0, true},
		{"one frame deeper, the same frame on top", stack(base, waiting, fr(retry, retry.Entry, call)), 0, true},
		{"two frames deeper", stack(base, waiting, fr(retry, 2, call), fr(retry, retry.Entry, call)), 0, true},
		{"deeper, the top frame elsewhere", stack(base, waiting, fr(retry, 2, call)), 0, false},
		{"deeper, but the loop returned below the keyframe's call", stack(base, waiting, fr(retry, retry.Entry, call)), 1, false},
		{"lower", stack(base), 0, false},
		{"deeper, another global", func() *state {
			s := stack(base, waiting, fr(retry, retry.Entry, call))
			s.globals[0] = ir.False
			return s
		}(), 0, false},
	}
	for _, tc := range cases {
		d := newLoopDips(p, start)
		rec := []byte(d.start())
		rec[0] = byte(tc.dip)
		if got := d.comesBack(start, tc.end, string(rec)); got != tc.want {
			t.Errorf("%s: comes back %v, want %v", tc.name, got, tc.want)
		}
	}
}
