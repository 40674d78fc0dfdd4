package explicit

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"bmc/internal/progen"
	"bmc/ir"
	"bmc/result"
)

// explore runs the explicit search and returns the checker too, so that
// a test can take the execution of the violation found.
func explore(t *testing.T, p *ir.Program, opts Options) (*Checker, *result.Result) {
	t.Helper()
	c, err := New(p, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c, c.Run(context.Background())
}

func loadFile(t *testing.T, name, threads string) *ir.Program {
	t.Helper()
	src, err := os.ReadFile("../examples/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var lo ir.Options
	if threads != "" {
		if lo.Threads, err = ir.ParseThreads(threads); err != nil {
			t.Fatal(err)
		}
	}
	return loadText(t, name, string(src), lo)
}

// modelSteps turns the execution of the violation the search found into
// the steps another engine would give, with a model's values: every value
// definite, the arbitrary ones T.
func modelSteps(c *Checker) []result.ReplayStep {
	p := c.violationPath()
	c.concretize(p.states, p.recs)
	model := func(vals []ir.Value) []ir.Value {
		out := make([]ir.Value, len(vals))
		for i, v := range vals {
			out[i] = v
			if v == ir.Unknown {
				out[i] = ir.True
			}
		}
		return out
	}
	var steps []result.ReplayStep
	for i := 1; i < len(p.states); i++ {
		a, b, r := p.states[i-1], p.states[i], p.recs[i]
		st := result.ReplayStep{Thread: int(r.thread), Edge: c.prog.Edges[r.edge], Globals: model(b.globals)}
		if th := &b.threads[st.Thread]; !(a.init && !b.init) && th.alive() {
			st.Locals = model(th.top().locals)
		}
		steps = append(steps, st)
	}
	return steps
}

// traceText is a trace as the lines a person reads, without positions.
func traceText(tr *result.Trace) string {
	var lines []string
	for _, s := range tr.Steps {
		if s.Event != "" {
			lines = append(lines, "---- "+s.Event)
			continue
		}
		lines = append(lines, fmt.Sprintf("%s  %s  %s", s.Thread, s.Stmt, strings.Join(s.Changes, " ")))
	}
	return strings.Join(lines, "\n")
}

// bound is a scheduling mode for the tests: Switches and Rounds as in
// Options.
type bound struct{ switches, rounds int }

func (b bound) String() string {
	switch {
	case b.rounds > 0:
		return fmt.Sprintf("-k %d", b.rounds)
	case b.switches >= 0:
		return fmt.Sprintf("--switches %d", b.switches)
	}
	return "unbounded"
}

func (b bound) options() Options {
	opts := DefaultOptions()
	opts.Switches, opts.Rounds = b.switches, b.rounds
	return opts
}

// TestReplayedTraceIsTheExplicitTrace replays the explicit engine's
// counterexamples as another engine's model would give them (every value
// fixed): the trace must be the same, line for line, with the same
// numbered scheduling events, and no value that nothing reads.
func TestReplayedTraceIsTheExplicitTrace(t *testing.T) {
	cases := []struct {
		file, threads string
		bound         bound
		want          []string // lines the trace must have
	}{
		{"peterson_buggy.bpl", "", bound{2, 0}, []string{"---- p0 runs first", "---- context switch 1 of 2: p1 runs", "---- context switch 2 of 2: p0 runs"}},
		{"peterson_buggy.bpl", "", bound{-1, 2}, []string{"---- round 1 of 2 begins: p0 runs", "---- context switch: p1 runs (round 1)", "---- round 2 of 2 begins: p0 runs"}},
		{"peterson_buggy.bpl", "", bound{-1, 0}, []string{"---- init done; threads start: p0, p1", "---- context switch: p1 runs"}},
		{"bluetooth.bpl", "adder=1,stopper=2", bound{3, 0}, []string{"---- context switch 3 of 3: adder runs"}},
		{"bluetooth.bpl", "adder=2,stopper=1", bound{-1, 3}, []string{"---- round 3 of 3 begins: adder#1 runs"}},
		{"mutant_fig1b.bpl", "", bound{2, 0}, []string{"---- context switch 2 of 2"}},
		{"kind_fig5_owned.bpl", "", bound{-1, 1}, []string{"---- round 1 of 1 begins"}},
	}
	for _, tc := range cases {
		t.Run(tc.file+" "+tc.bound.String(), func(t *testing.T) {
			p := loadFile(t, tc.file, tc.threads)
			c, res := explore(t, p, tc.bound.options())
			if res.Verdict != result.Unsafe {
				t.Fatalf("%s: %s, no counterexample to replay", tc.bound, res.Verdict)
			}
			replayed, err := Replay(p, tc.bound.options(), modelSteps(c))
			if err != nil {
				t.Fatal(err)
			}
			want, got := traceText(res.Trace), traceText(replayed)
			if got != want || replayed.Switches != res.Trace.Switches {
				t.Fatalf("replayed trace (%d switches):\n%s\nexplicit trace (%d switches):\n%s", replayed.Switches, got, res.Trace.Switches, want)
			}
			for _, line := range tc.want {
				if !strings.Contains(got, line) {
					t.Errorf("trace lacks %q:\n%s", line, got)
				}
			}
		})
	}
}

// TestReplayedRandomTraces does the same on random programs in every
// scheduling mode, with and without the reduction.
func TestReplayedRandomTraces(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 15
	}
	replayed := 0
	for seed := int64(1); seed <= int64(seeds); seed++ {
		cfg := progen.DefaultConfig()
		cfg.Stmts = 4
		cfg.Threads = 2 + int(seed%4/3)
		src := progen.Generate(seed, cfg)
		p := loadText(t, fmt.Sprintf("seed%d.bpl", seed), src, ir.Options{})
		for _, sc := range schedules {
			for _, reduce := range []bool{true, false} {
				opts := DefaultOptions()
				opts.Switches, opts.Rounds, opts.Depth, opts.MaxStates, opts.NoReduction = sc.switches, sc.rounds, 4, 5_000, !reduce
				c, res := explore(t, p, opts)
				if res.Verdict != result.Unsafe {
					continue
				}
				tr, err := Replay(p, opts, modelSteps(c))
				if err != nil {
					t.Fatalf("seed %d, %s, reduction %v: %v\n%s\n%s", seed, sc.name, reduce, err, traceText(res.Trace), src)
				}
				if got, want := traceText(tr), traceText(res.Trace); got != want {
					t.Fatalf("seed %d, %s, reduction %v: replayed trace\n%s\nexplicit trace\n%s\n%s", seed, sc.name, reduce, got, want, src)
				}
				replayed++
			}
		}
	}
	if replayed == 0 {
		t.Fatal("no counterexample among the random programs")
	}
	t.Logf("%d counterexamples replayed", replayed)
}

// TestReplayKeepsToTheBound: steps that need more context switches or
// rounds than the bound are not a counterexample within it.
func TestReplayKeepsToTheBound(t *testing.T) {
	p := loadFile(t, "peterson_buggy.bpl", "")
	c, res := explore(t, p, bound{2, 0}.options())
	if res.Verdict != result.Unsafe {
		t.Fatalf("peterson_buggy.bpl --switches 2: %s", res.Verdict)
	}
	steps := modelSteps(c)
	cases := []struct {
		bound   bound
		wantErr string // "" for none
	}{
		{bound{2, 0}, ""},
		{bound{5, 0}, ""},
		{bound{1, 0}, "need 2 context switches, more than the bound of 1"},
		{bound{0, 0}, "need 2 context switches, more than the bound of 0"},
		{bound{-1, 2}, ""},
		{bound{-1, 1}, "need 2 rounds, more than the bound of 1"},
		{bound{-1, 0}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.bound.String(), func(t *testing.T) {
			tr, err := Replay(p, tc.bound.options(), steps)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatal(err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("got %v, want an error saying %q (trace %v)", err, tc.wantErr, tr)
			}
		})
	}
}

// TestReplayKeepsToGetafixSwitchPoints: the violation of
// getafix_merged_sections.bpl leaves the writer between its two atomic
// sections; it replays as we ask the question and not with Getafix's
// switch points, where the search finds none.
func TestReplayKeepsToGetafixSwitchPoints(t *testing.T) {
	p := loadFile(t, "getafix_merged_sections.bpl", "")
	c, res := explore(t, p, bound{-1, 1}.options())
	if res.Verdict != result.Unsafe {
		t.Fatalf("-k 1: %s", res.Verdict)
	}
	steps := modelSteps(c)
	if _, err := Replay(p, bound{-1, 1}.options(), steps); err != nil {
		t.Fatal(err)
	}
	getafix := bound{-1, 1}.options()
	getafix.GetafixSwitches = true
	if _, err := Replay(p, getafix, steps); err == nil || !strings.Contains(err.Error(), "where Getafix places no context switch") {
		t.Errorf("with Getafix's switch points the replay gave %v, want it refused", err)
	}
	if _, res := explore(t, p, getafix); res.Verdict != result.Safe {
		t.Errorf("with Getafix's switch points: %s, want safe", res.Verdict)
	}
}

// TestTraceShowsOnlyValuesRead: with 100,000 globals that nothing reads,
// neither the explicit trace nor a replayed one (whose model fixes every
// global) lists them, so every line stays short.
func TestTraceShowsOnlyValuesRead(t *testing.T) {
	var b strings.Builder
	b.WriteString("decl ")
	for i := range 100_000 {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "unused%d", i)
	}
	b.WriteString(";\n" + `decl g, h;
thread void a() begin h := T; g := !g; assert(!g | !h); end
thread void b() begin h := F; end`)
	p := loadText(t, "wide.bpl", b.String(), ir.Options{})
	for _, bd := range []bound{{-1, 0}, {1, 0}, {-1, 1}} {
		t.Run(bd.String(), func(t *testing.T) {
			c, res := explore(t, p, bd.options())
			if res.Verdict != result.Unsafe {
				t.Fatalf("verdict %s", res.Verdict)
			}
			replayed, err := Replay(p, bd.options(), modelSteps(c))
			if err != nil {
				t.Fatal(err)
			}
			for name, tr := range map[string]*result.Trace{"explicit": res.Trace, "replayed": replayed} {
				text := traceText(tr)
				for _, line := range strings.Split(text, "\n") {
					if len(line) > 100 || strings.Contains(line, "unused") {
						t.Fatalf("%s trace has the line %.200q", name, line)
					}
				}
				// g is read before it is written (g := !g), h is not.
				if !strings.Contains(text, "initial values: g=F\n") {
					t.Errorf("%s trace does not give the initial value of g alone:\n%s", name, text)
				}
			}
		})
	}
}

// TestTraceShowsResults: a tryacquire shows the value it returned, and a
// return the values it wrote into the call's targets, even when a target
// held that value already.
func TestTraceShowsResults(t *testing.T) {
	src := `lock m;
decl g;
bool<2> f(a) begin return a, !a; end
void main() begin
  decl got, r;
  r, g := T, F;
  got := tryacquire(m);
  release(m);
  got := tryacquire(m);
  got := tryacquire(m);
  r, g := f(r);
  assert(F);
end`
	p := loadText(t, "results.bpl", src, ir.Options{})
	c, res := explore(t, p, DefaultOptions())
	if res.Verdict != result.Unsafe {
		t.Fatalf("verdict %s", res.Verdict)
	}
	replayed, err := Replay(p, DefaultOptions(), modelSteps(c))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"main  got := tryacquire(m);  got=T lock m held by main",
		"main  release(m);  lock m free",
		"main  got := tryacquire(m);  got=T lock m held by main",
		"main  got := tryacquire(m);  got=F",
		"main  return a, !a;  r=T g=F",
	}
	for name, tr := range map[string]*result.Trace{"explicit": res.Trace, "replayed": replayed} {
		text := traceText(tr)
		at := 0
		for _, w := range want {
			i := strings.Index(text[at:], w)
			if i < 0 {
				t.Fatalf("%s trace lacks %q after line %d:\n%s", name, w, strings.Count(text[:at], "\n"), text)
			}
			at += i + len(w)
		}
	}
}
