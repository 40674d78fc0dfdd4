package method

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"bmc/explicit"
	"bmc/internal/progen"
	"bmc/internal/testsolvers"
	"bmc/ir"
	"bmc/result"
	"bmc/seq"
	"bmc/solver"
)

// CheckBMC runs BMC with s on the sequentialization and maps a
// counterexample back to a replayed trace of the original program.
func checkBMC(sp *seq.Program, s solver.Solver, depth, steps int) (*result.Result, error) {
	eo := explicit.DefaultOptions()
	eo.Depth = depth
	return bmc(context.Background(), sp.Seq, s, bmcOptions{
		Depth: depth, MainFrame: true, MaxSteps: steps,
		Replay: func(st []result.ReplayStep) (*result.Trace, error) {
			cs, err := sp.Interleave(st)
			if err != nil {
				return nil, err
			}
			return explicit.Replay(sp.Orig, eo, cs)
		}})
}

// seqBounds are the context bounds the tests try.
var seqBounds = []seq.Bound{{Rounds: 1}, {Rounds: 2}, {Switches: 0}, {Switches: 1}, {Switches: 2}}

// sequentialize is p's eager or lazy sequentialization within bd.
func sequentialize(p *ir.Program, bd seq.Bound, method string) (*seq.Program, error) {
	if method == "eager" {
		return seq.Eager(context.Background(), p, bd)
	}
	return seq.Lazy(context.Background(), p, bd)
}

// TestBMCOnSequentializations checks random concurrent programs (locks,
// atomic sections, nondeterminism; no recursion, so that the stack bound
// is exact) with the explicit checker and with BMC on both
// sequentializations and every solver: a BMC violation must replay on the
// original program (BMC fails otherwise) and be one the explicit
// search finds; a BMC run that saw every execution must find every
// violation.
func TestBMCOnSequentializations(t *testing.T) {
	const depth, steps = 3, 15
	programs := 24
	if testing.Short() {
		programs = 16
	}
	counts := map[string]int{}
	for seed := int64(1); seed <= int64(programs); seed++ {
		cfg := progen.DefaultConfig()
		cfg.Stmts, cfg.WithHelper = 4, false
		src := progen.Generate(seed, cfg)
		p, _, err := ir.Load(context.Background(), fmt.Sprintf("seed%d.bpl", seed), []byte(src), ir.Options{})
		if err != nil {
			t.Fatal(err)
		}
		// Two bounds per program, varying with the seed, keep the test
		// within a minute or two.
		for _, bd := range []seq.Bound{seqBounds[seed%int64(len(seqBounds))], seqBounds[(seed+2)%int64(len(seqBounds))]} {
			b := DefaultBounds()
			b.Depth, b.MaxStates = depth, 300_000
			ck, _ := explicit.New(p, b.Within(bd).ExplicitOptions())
			want := ck.Run(context.Background())
			if want.Incomplete() && want.Verdict != result.Unsafe {
				continue
			}
			for _, method := range []string{"eager", "lazy"} {
				sp, _ := sequentialize(p, bd, method)
				for name, mk := range testsolvers.All(t) {
					if name != "gini" && seed%4 != 0 {
						continue // Z3 on every fourth program: it is slower
					}
					st := time.Now()
					s := mk()
					res, err := checkBMC(sp, s, depth, steps)
					s.Close()
					if err != nil {
						t.Fatalf("seed %d %s %v %s: %v\n%s", seed, method, bd, name, err, src)
					}
					exhaustive := strings.HasPrefix(res.Bounds, "all executions")
					switch {
					case res.Verdict == result.Unsafe && want.Verdict != result.Unsafe,
						want.Verdict == result.Unsafe && res.Verdict == result.Safe && exhaustive:
						t.Fatalf("seed %d %s %v %s: explicit %s, bmc %s (%s)\n%s", seed, method, bd, name, want.Verdict, res.Verdict, res.Bounds, src)
					}
					counts[fmt.Sprintf("%s %s/%s exh=%v", method, want.Verdict, res.Verdict, exhaustive)]++
					if testing.Verbose() {
						t.Logf("seed %d %s %v %s: %s in %v", seed, method, bd, name, res.Verdict, time.Since(st))
					}
				}
			}
		}
	}
	t.Logf("%v", counts)
	for _, m := range []string{"eager", "lazy"} {
		if counts[m+" unsafe/unsafe exh=false"]+counts[m+" unsafe/unsafe exh=true"] == 0 {
			t.Errorf("%s: no violation found by BMC: %v", m, counts)
		}
	}
}

// TestErrorLabelTraces checks counterexamples that end at an error label
// reached in different ways (a return into it, a call whose continuation
// it is, a plain step, an atomic procedure's return): BMC on both
// sequentializations must find them and their traces must replay.
func TestErrorLabelTraces(t *testing.T) {
	programs := map[string]string{
		"return into the label": `decl g;
void init() begin g := F; endinit: skip; end
void set(v) begin g := v; return; end
void main() begin set(T); SLIC_ERROR: skip; end
void thread1() begin skip; end`,
		"atomic return into the label": `decl g;
void init() begin g := F; endinit: skip; end
void __VERIFIER_atomic_set(v) begin g := v; return; end
void main() begin __VERIFIER_atomic_set(T); SLIC_ERROR: skip; end
void thread1() begin skip; end`,
		"after another thread's step": `decl g;
void init() begin g := F; endinit: skip; end
void main() begin assume(g); SLIC_ERROR: skip; end
void thread1() begin g := T; end`,
	}
	for name, src := range programs {
		p, _, err := ir.Load(context.Background(), "errlabel.bp", []byte(src), ir.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, method := range []string{"eager", "lazy"} {
			sp, err := sequentialize(p, seq.Bound{Rounds: 2}, method)
			if err != nil {
				t.Fatalf("%s, %s: %v", name, method, err)
			}
			for sv, mk := range testsolvers.All(t) {
				s := mk()
				res, err := checkBMC(sp, s, 3, 30)
				s.Close()
				if err != nil {
					t.Fatalf("%s, %s, %s: %v", name, method, sv, err)
				}
				if res.Verdict != result.Unsafe {
					t.Errorf("%s, %s, %s: %s within %s, want a violation", name, method, sv, res.Verdict, res.Bounds)
				}
			}
		}
	}
}
