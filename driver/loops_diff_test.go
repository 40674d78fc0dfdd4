package driver

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"
	"time"

	"bmc/explicit"
	"bmc/internal/progen"
	"bmc/internal/soak"
	"bmc/ir"
	"bmc/method"
	"bmc/result"
	"bmc/smt"
)

// loopCase is one program of TestLoopsDifferential with the bounds and
// the BMC configuration it is checked under.
type loopCase struct {
	cfg      progen.Config
	switches int // -1: rounds instead
	rounds   int
	seq      method.Seq
	solver   method.SolverName
	frames   bool
	maxSteps int
}

// newLoopCase varies the program shape, the bound and the BMC
// configuration with the seed: the sequentialization rotates, the rest is
// drawn at random so that the choices do not go in step.
func newLoopCase(seed int64, z3 bool) loopCase {
	r := rand.New(rand.NewSource(seed))
	cfg := progen.DefaultConfig()
	cfg.Globals, cfg.Stmts, cfg.ShortLoops = 2, 2+r.Intn(2), true
	if r.Intn(5) == 0 {
		// Only loops that end after a few iterations: BMC can see every
		// execution end within its step bound.
		cfg.Bounded = true
	} else {
		cfg.WithHelper, cfg.SpinWaits, cfg.Recursive = r.Intn(4) == 0, true, r.Intn(3) == 0
		cfg.CounterBits = 3 + r.Intn(2)
		if r.Intn(3) > 0 {
			cfg.ShuffleBits = 4 + r.Intn(2)
		}
		cfg.LateBugs = r.Intn(6) > 0
	}
	// Each switch bound up to the one asked for is a BMC run of its own:
	// 3 switches cost about four times as much as 1.
	c := loopCase{cfg: cfg, switches: []int{1, 1, 2, 2, 3}[r.Intn(5)], seq: []method.Seq{method.SeqEager, method.SeqLazy, method.SeqDirect}[seed%3],
		solver: "gini", frames: r.Intn(2) == 0, maxSteps: 8 + r.Intn(8)}
	if r.Intn(4) == 0 {
		// Three threads: smaller bodies and bounds keep BMC fast.
		c.cfg.Threads, c.cfg.Stmts, c.cfg.Locks = 3, 2, 0
		c.switches = min(c.switches, 2)
	}
	if r.Intn(3) == 0 {
		c.switches, c.rounds = -1, 1+r.Intn(2)
	}
	if z3 && r.Intn(8) == 0 {
		// Z3 takes about three times as long as gini here.
		c.solver = "z3"
	}
	return c
}

func (c loopCase) String() string {
	b := fmt.Sprintf("--switches %d", c.switches)
	if c.rounds > 0 {
		b = fmt.Sprintf("-k %d", c.rounds)
	}
	return fmt.Sprintf("%s, bmc %s/%s frames=%v, %d steps not stated", b, c.seq, c.solver, c.frames, c.maxSteps)
}

// loopDepth is the call depth of the loop tests: the recursive functions
// of progen reach it on some interleavings only.
const loopDepth = 3

// explicitOptions are the bounds of c for the explicit checker, with the
// switch or round bound k.
func (c loopCase) explicitOptions(k int) explicit.Options {
	o := explicit.DefaultOptions()
	o.Depth, o.Timeout = loopDepth, 20*time.Second
	if c.rounds > 0 {
		return o.Within(k, 0)
	}
	return o.Within(0, k)
}

func (c loopCase) bound() int { return max(c.switches, c.rounds) }

// onlyDepth says that every limit of an explicit search is the call-depth
// bound, one the user states: such an unknown is the honest answer.
func onlyDepth(limits []result.Limit) bool {
	for _, l := range limits {
		if l.Kind != result.LimitDepth {
			return false
		}
	}
	return len(limits) > 0
}

// TestLoopsDifferential checks the exact bmc engine (BMC, then PDR past
// a small step bound the user did not state) against the explicit checker on random concurrent programs
// whose threads loop (spin waits, counters, shuffles), call a recursive
// function and carry assertions that fail only late in an execution.
// Each program is checked once, the sequentialization (eager, lazy,
// direct), the solver (gini, Z3 on some seeds), the frame-by-frame
// unrolling and the switch or round bound rotating with the seed. The
// verdict rule: BMC says "safe" only when the explicit checker does;
// every BMC violation replays (Check fails otherwise) and is one the
// explicit checker finds at that bound; a violation the explicit checker
// finds is found or the answer is unknown, naming the limit that cut the
// search (the depth bound, the timeout).
func TestLoopsDifferential(t *testing.T) {
	programs := soak.Seeds(10, 54) // a sample; make soak runs more
	if testing.Short() {
		programs = 10
	}
	z3 := smt.Available
	counts := map[string]int{}
	start := time.Now()
	for seed := int64(1); seed <= int64(programs); seed++ {
		c := newLoopCase(seed, z3)
		src := progen.Generate(seed, c.cfg)
		fail := func(format string, args ...any) {
			t.Helper()
			t.Errorf("seed %d (%s): %s\n%s", seed, c, fmt.Sprintf(format, args...), src)
		}
		p, _, err := ir.Load(context.Background(), fmt.Sprintf("seed%d.bpl", seed), []byte(src), ir.Options{})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		explicitAt := func(k int) *result.Result {
			ch, err := explicit.New(p, c.explicitOptions(k))
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			return ch.Run(context.Background())
		}
		want := explicitAt(c.bound())
		if want.Verdict == result.Unknown && !onlyDepth(want.Limits) {
			fail("the explicit checker did not finish (%v): the programs are too large for this test", want.Limits)
			continue
		}
		o := method.Options{Engine: "bmc", Seq: c.seq, Solver: c.solver, Frames: c.frames,
			MaxSteps: c.maxSteps, Timeout: 5 * time.Second, Bounds: method.BoundsOf(c.explicitOptions(c.bound()))}
		got, err := Check(context.Background(), p, o)
		if err != nil {
			fail("bmc: %v", err)
			continue
		}
		outcome := fmt.Sprintf("bmc %s, explicit %s", got.Verdict, want.Verdict)
		switch got.Verdict {
		case result.Safe:
			if want.Verdict != result.Safe {
				fail("bmc says safe (%s), the explicit checker %s %v", got.Bounds, want.Verdict, want.Limits)
			}
		case result.Unsafe:
			if got.Trace == nil {
				fail("bmc reports a violation without a trace")
			}
			if want.Verdict != result.Unsafe {
				fail("bmc finds a violation at bound %d, the explicit checker says %s %v", got.ContextBound, want.Verdict, want.Limits)
			} else if at := explicitAt(got.ContextBound); at.Verdict != result.Unsafe {
				fail("bmc finds a violation at bound %d, where the explicit checker says %s %v", got.ContextBound, at.Verdict, at.Limits)
			}
		case result.Unknown:
			if len(got.Limits) == 0 {
				fail("bmc says unknown without naming a limit")
			}
			if got.Has(result.LimitTimeout) {
				outcome = "bmc timeout"
			}
		}
		counts[outcome]++
	}
	logOutcomes(t, programs, start, counts)
	// The mix must exercise agreement both ways.
	need := 2
	for _, k := range []string{"bmc safe, explicit safe", "bmc unsafe, explicit unsafe"} {
		if counts[k] < need {
			t.Errorf("only %d programs with %q, want at least %d: the generated programs do not exercise the verdict rule", counts[k], k, need)
		}
	}
	// PDR is still slow on some of these programs (issue 13, item 6):
	// about a third time out on a loaded machine; two thirds would be a
	// regression.
	if counts["bmc timeout"] > programs*2/3 {
		t.Errorf("%d of %d BMC checks timed out", counts["bmc timeout"], programs)
	}
}

// logOutcomes logs how many of the programs of a differential test had
// each outcome.
func logOutcomes(t *testing.T, programs int, start time.Time, counts map[string]int) {
	t.Helper()
	var lines []string
	for k, n := range counts {
		lines = append(lines, fmt.Sprintf("%4d  %s", n, k))
	}
	sort.Strings(lines)
	t.Logf("%d programs in %v:\n%s", programs, time.Since(start).Round(time.Millisecond), strings.Join(lines, "\n"))
}

// lateSwap is examples/permutation_late.bpl with three bits: thread2
// shuffles a token planted by thread1; the assertion fails once a second
// token, planted in thread1's second round, sits next to the first one
// rotated to x_3. Two rounds and 28 steps of the eager sequential
// program (12 of the direct product) are needed.
const lateSwap = `decl test, x_1, x_2, x_3;

void init() begin
  test, x_1, x_2, x_3 := F, F, F, F;
end

thread void thread1() begin
  x_1 := T;
  test := T;
  x_1 := T;
end

thread void thread2() begin
  assume(test);
  while (T) do
    assert(!(x_1 & x_3));
    if (*) then
      x_1, x_2, x_3 := x_2, x_1, x_3;
    else
      x_1, x_2, x_3 := x_3, x_1, x_2;
    fi
  od
end
`

// TestLateViolationBeyondStepBound: a violation beyond the step bound is
// found by the proof engine when the user did not state the bound (never
// "safe"), is "safe within the steps" when the user did, and is found by
// BMC once the stated bound is large enough.
func TestLateViolationBeyondStepBound(t *testing.T) {
	p, _, err := ir.Load(context.Background(), "late.bpl", []byte(lateSwap), ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	eo := explicit.DefaultOptions()
	eo.Rounds, eo.Switches = 2, -1
	ch, err := explicit.New(p, eo)
	if err != nil {
		t.Fatal(err)
	}
	if r := ch.Run(context.Background()); r.Verdict != result.Unsafe {
		t.Fatalf("the explicit checker says %s %v at 2 rounds, want unsafe", r.Verdict, r.Limits)
	}
	tests := []struct {
		seq      method.Seq
		maxSteps int
		stated   bool
		want     result.Verdict
	}{
		{"eager", 10, false, result.Unsafe},
		{"direct", 10, false, result.Unsafe},
		{"eager", 10, true, result.Safe},
		{"direct", 10, true, result.Safe},
		{"eager", 30, true, result.Unsafe},
		{"direct", 14, true, result.Unsafe},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/%d steps stated=%v", tc.seq, tc.maxSteps, tc.stated), func(t *testing.T) {
			o := method.Options{Engine: "bmc", Seq: tc.seq, Solver: "gini", MaxSteps: tc.maxSteps, StepsStated: tc.stated,
				Timeout: time.Minute, Bounds: method.BoundsOf(eo)}
			got, err := Check(context.Background(), p, o)
			if err != nil {
				t.Fatal(err)
			}
			if got.Verdict != tc.want {
				t.Fatalf("%s (%s, limits %v), want %s", got.Verdict, got.Bounds, got.Limits, tc.want)
			}
			switch tc.want {
			case result.Safe:
				if steps := fmt.Sprintf("%d steps", tc.maxSteps); !strings.Contains(got.Bounds, steps) {
					t.Errorf("safe within %q, which does not name the %s the user stated", got.Bounds, steps)
				}
			case result.Unsafe:
				if got.Trace == nil || got.ContextBound != 2 {
					t.Errorf("violation at %d rounds (trace %v), want one with a trace at 2 rounds", got.ContextBound, got.Trace != nil)
				}
			}
		})
	}
}
