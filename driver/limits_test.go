package driver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bmc/internal/budget"
	"bmc/internal/progen"
	"bmc/ir"
	"bmc/method"
	"bmc/result"
	"bmc/seq"
)

func load(t *testing.T, name, src string, opts ir.Options) *ir.Program {
	t.Helper()
	p, _, err := ir.Load(context.Background(), name, []byte(src), opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDeadlineHolds checks that --timeout ends a check within the
// timeout and a second whatever the stage: the inputs of the issue that
// ran for 2.6 s, 24 s and more than 60 s with a 1 s timeout because
// encoding did not look at the clock.
func TestDeadlineHolds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds large encodings")
	}
	// The driver with both bugs fixed, with at most three adders (its
	// counter of references counts modulo 8): its encodings are as large
	// as the buggy one's, and no solver proves it safe within the second,
	// where one may find a bug in the buggy one.
	bluetooth := func(stoppers int) *ir.Program {
		src, err := readExample("bluetooth_fixed.bpl")
		if err != nil {
			t.Fatal(err)
		}
		return load(t, "bluetooth_fixed.bpl", src, ir.Options{Threads: []ir.ThreadCount{{Name: "adder", Count: 3}, {Name: "stopper", Count: stoppers}}})
	}
	// The chains at the stated default depth: encoded with 16 frames
	// that each hold every return site (at their own depth they are
	// encoded whole, and the explicit engine decides them).
	cases := []struct {
		name string
		p    *ir.Program
		mod  func(*method.Options)
	}{
		{"chain of 3,000 functions, bmc", load(t, "chain3000.bpl", progen.Chain(3000, false), ir.Options{}), func(o *method.Options) {}},
		{"chain of 10,000 functions, bmc", load(t, "chain10000.bpl", progen.Chain(10000, false), ir.Options{}), func(o *method.Options) {}},
		{"chain of 3,000 functions, bmc, depth 200", load(t, "chain3000.bpl", progen.Chain(3000, false), ir.Options{}), func(o *method.Options) { o.Bounds.Depth = 200 }},
		{"bluetooth, 12 threads, eager, 4 rounds", bluetooth(9), func(o *method.Options) { o.Seq, o.Bounds.Rounds = "eager", 4 }},
		{"bluetooth, 6 threads, direct, 6 switches", bluetooth(3), func(o *method.Options) { o.Seq, o.Bounds.Switches = "direct", 6 }},
	}
	const timeout = time.Second
	for _, c := range cases {
		o := method.Options{Engine: "bmc", Solver: "gini", MaxSteps: 50, Timeout: timeout, Bounds: method.DefaultBounds(), DepthStated: true}
		c.mod(&o)
		start := time.Now()
		res, err := Check(context.Background(), c.p, o)
		took := time.Since(start)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if took > timeout+time.Second {
			t.Errorf("%s: --timeout %v ended after %v", c.name, timeout, took.Round(time.Millisecond))
		}
		if res.Verdict != result.Unknown || !res.Incomplete() || !strings.Contains(res.LimitText(), "timeout") {
			t.Errorf("%s: %s %v, want unknown: timeout", c.name, res.Verdict, res.Limits)
		}
	}
}

// TestMemoryLimit checks that a run which would grow beyond the memory
// limit ends with an unknown verdict naming the limit, and that a
// sequentialization that cannot fit is refused before it is built.
func TestMemoryLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates hundreds of MB")
	}
	// The chain of 3,000 functions with call depth 200 grew to
	// 1.9 GB within a minute.
	limit := residentBytes() + 200<<20
	o := method.Options{Engine: "bmc", Solver: "gini", MaxSteps: 50, MaxMemory: limit, Bounds: method.DefaultBounds(), DepthStated: true}
	o.Bounds.Depth = 200
	res, err := Check(context.Background(), load(t, "chain3000.bpl", progen.Chain(3000, false), ir.Options{}), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != result.Unknown || !strings.Contains(res.LimitText(), "memory limit") || !res.Incomplete() {
		t.Fatalf("%s %v, want unknown: memory limit", res.Verdict, res.Limits)
	}

	src, err := readExample("bluetooth.bpl")
	if err != nil {
		t.Fatal(err)
	}
	p := load(t, "bluetooth.bpl", src, ir.Options{Threads: []ir.ThreadCount{{Name: "adder", Count: 10}, {Name: "stopper", Count: 10}}})
	o = method.Options{Engine: "bmc", Solver: "gini", Seq: "eager", MaxSteps: 50, MaxMemory: limit, Bounds: method.DefaultBounds()}
	o.Bounds.Rounds = 32
	_, err = Check(context.Background(), p, o)
	var ue *result.UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "more than the memory limit") {
		t.Fatalf("32 rounds of 20 threads within %s: got %v, want a refusal", budget.FormatBytes(limit), err)
	}
	if err := method.SeqFits(p, seq.Bound{Rounds: 2}, limit); err != nil {
		t.Errorf("2 rounds refused: %v", err)
	}
}

// TestIncompleteBoundGoesOn checks that a bound whose search hit the
// depth limit does not end the deepening: the program has a
// violation with one switch that the explicit engine finds, while every
// execution without a switch recurses past the depth bound.
func TestIncompleteBoundGoesOn(t *testing.T) {
	p := load(t, "depth.bpl", `decl g;
void init() begin g := F; end
void r() begin if (*) then r(); fi end
thread void t1() begin g := T; r(); end
thread void t2() begin assert(!g); end
`, ir.Options{})
	for _, sq := range []method.Seq{method.SeqEager, method.SeqLazy, method.SeqDirect} {
		o := method.Options{Engine: "bmc", Solver: "gini", Seq: sq, MaxSteps: 50, Bounds: method.DefaultBounds()}
		o.Bounds.Switches, o.Bounds.Depth = 1, 4
		res, err := Check(context.Background(), p, o)
		if err != nil {
			t.Fatalf("%s: %v", sq, err)
		}
		if res.Verdict != result.Unsafe || res.ContextBound != 1 || !strings.Contains(res.Bounds, "not fully searched: depth bound") {
			t.Errorf("%s: %s at %d (%s), want a violation at 1 switch with the depth bound of 0 switches named", sq, res.Verdict, res.ContextBound, res.Bounds)
		}
		o.Bounds.Switches = 0
		if res, _ = Check(context.Background(), p, o); res.Verdict != result.Unknown {
			t.Errorf("%s, 0 switches: %s, want unknown (depth bound)", sq, res.Verdict)
		}
	}
}

// TestStepBoundNotStated checks the verdict rule on a sequential program
// whose violation lies beyond the step bound: when the user did not give
// the bound, the exact methods (the loop unwound until it provably
// suffices, and PDR) find it at any length, with a replayed trace; "safe
// within N steps" when they did.
func TestStepBoundNotStated(t *testing.T) {
	// A 3-bit counter: the assertion fails after 7 increments, 29 steps.
	p := load(t, "late.bpl", `decl a, b, c;
void main() begin
  a, b, c := F, F, F;
  while (T) do
    a, b, c := !a, b ^ a, c ^ (a & b);
    assert(!(a & b & c));
  od
end
`, ir.Options{})
	o := method.Options{Engine: "bmc", Solver: "gini", MaxSteps: 10, Bounds: method.DefaultBounds()}
	res, err := Check(context.Background(), p, o)
	switch {
	case err != nil:
		t.Fatal(err)
	case res.Verdict != result.Unsafe || res.Trace == nil:
		t.Errorf("bmc, 10 steps not stated: %s by %s %v, want the violation", res.Verdict, res.Engine, res.Limits)
	}
	o.StepsStated = true
	if res, _ = Check(context.Background(), p, o); res.Verdict != result.Safe || !strings.HasPrefix(res.Bounds, "10 steps") {
		t.Errorf("bmc, --max-steps 10: %s within %q, want safe within 10 steps", res.Verdict, res.Bounds)
	}
}

// readExample reads one of our own example programs.
func readExample(name string) (string, error) {
	b, err := os.ReadFile(filepath.Join("..", "examples", name))
	return string(b), err
}

// TestDeepChainWithoutRecursion: a program without recursion is searched
// at the depth of its own deepest stack when the user states none, so a
// chain of calls 3,000 deep is searched whole, and its answers name no
// depth: the violation at its end is found, the safe variant proved.
func TestDeepChainWithoutRecursion(t *testing.T) {
	unsafe := progen.Chain(3000, false)
	safe := strings.Replace(unsafe, "void main() begin f0(); end", "void main() begin g := F; f0(); end", 1)
	for _, c := range []struct {
		name, src string
		want      result.Verdict
	}{{"unsafe", unsafe, result.Unsafe}, {"safe", safe, result.Safe}} {
		p := load(t, "chain3000.bpl", c.src, ir.Options{})
		if d := p.Deepest(); d != 3001 {
			t.Fatalf("%s: deepest stack %d, want 3001 (main and 3,000 functions)", c.name, d)
		}
		res, err := Check(context.Background(), p, method.Options{Solver: "gini", MaxSteps: 50, Bounds: method.DefaultBounds()})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var text strings.Builder
		res.WriteText(&text, "chain3000.bpl")
		if res.Verdict != c.want || strings.Contains(text.String(), "depth") {
			t.Errorf("%s: %s, want %s, and no call depth named:\n%s", c.name, res.Verdict, c.want, text.String())
		}
	}
}
