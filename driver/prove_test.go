package driver

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"bmc/encode"
	"bmc/engine"
	"bmc/explicit"
	"bmc/internal/progen"
	"bmc/internal/soak"
	"bmc/ir"
	"bmc/method"
	"bmc/result"
	"bmc/sat"
	"bmc/smt"
	"bmc/solver"
	"bmc/ts"
)

// proveCase is one program of TestProveSoundness and how it is proved.
type proveCase struct {
	cfg      progen.Config
	method   method.ProofMethod
	plan     bool       // the default plan (method auto, no --seq, no certificate)
	seq      method.Seq // eager, lazy, direct; "" with no bound
	switches int        // -1: every interleaving (or a sequential program)
}

func newProveCase(seed int64) proveCase {
	r := rand.New(rand.NewSource(seed))
	cfg := progen.DefaultConfig()
	cfg.Globals, cfg.Stmts, cfg.Locals, cfg.Locks = 2, 2+r.Intn(2), 1, 0
	cfg.SpinWaits, cfg.ShortLoops, cfg.Recursive = r.Intn(2) == 0, true, r.Intn(3) == 0
	if r.Intn(2) == 0 {
		cfg.CounterBits, cfg.LateBugs = 2+r.Intn(2), r.Intn(2) == 0
	}
	c := proveCase{cfg: cfg, method: []method.ProofMethod{method.ProofPDR, method.ProofKind, method.ProofKindSimple, method.Auto}[seed%4], plan: seed%4 == 3, switches: -1}
	switch r.Intn(3) {
	case 0:
		c.cfg.Threads = 1
	case 1:
		c.seq, c.switches = []method.Seq{method.SeqEager, method.SeqLazy, method.SeqDirect}[r.Intn(3)], 1+r.Intn(2)
	}
	return c
}

func (c proveCase) String() string {
	switch {
	case c.cfg.Threads == 1:
		return "sequential, --method " + string(c.method)
	case c.switches < 0:
		return "every interleaving, --method " + string(c.method)
	}
	return fmt.Sprintf("--switches %d --seq %s --method %s", c.switches, c.seq, c.method)
}

// proveDepth is the call depth of the soundness test.
const proveDepth = 3

// TestProveSoundness runs bmc prove on random programs, sequential and
// concurrent, with loops, recursion and late violations, and checks every
// answer against the explicit checker at the same bounds: a proof only
// where it finds no violation and no execution cut by the depth bound,
// each PDR invariant re-checked from its certificate on a fresh solver;
// a violation (replayed by Prove before it returns) only where it finds
// one too.
func TestProveSoundness(t *testing.T) {
	programs := soak.Seeds(16, 90) // a sample; make soak runs more
	if testing.Short() {
		programs = 16
	}
	counts := map[string]int{}
	start := time.Now()
	for seed := int64(1); seed <= int64(programs); seed++ {
		c := newProveCase(seed)
		src := progen.Generate(seed, c.cfg)
		fail := func(format string, args ...any) {
			t.Helper()
			t.Errorf("seed %d (%s): %s\n%s", seed, c, fmt.Sprintf(format, args...), src)
		}
		p, _, err := ir.Load(context.Background(), fmt.Sprintf("seed%d.bpl", seed), []byte(src), ir.Options{})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		eo := explicit.DefaultOptions()
		eo.Depth, eo.Timeout = proveDepth, 20*time.Second
		if c.switches >= 0 {
			eo = eo.Within(0, c.switches)
		}
		ch, err := explicit.New(p, eo)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		want := ch.Run(context.Background())
		if want.Verdict == result.Unknown && !onlyDepth(want.Limits) {
			fail("the explicit checker did not finish (%v)", want.Limits)
			continue
		}
		var cert method.Certificate
		o := method.Options{Solver: "gini", Seq: c.seq, Timeout: 5 * time.Second, Bounds: method.BoundsOf(eo),
			Proof: method.ProofOptions{Method: c.method, MaxK: 40, Certificate: &cert}}
		if c.plan {
			// The default plan: the exhaustive search races PDR (a
			// certificate would ask for PDR alone).
			o.Seq, o.Proof.Certificate = "", nil
		}
		got, err := Prove(context.Background(), p, o)
		if err != nil {
			fail("prove: %v", err)
			continue
		}
		outcome := fmt.Sprintf("prove %s, explicit %s", got.Verdict, want.Verdict)
		switch got.Verdict {
		case result.Safe:
			// A proof at every call depth where the explicit search
			// stopped at its depth bound without a violation agrees
			// with it as far as it went (the soak's seeds 75 and 87).
			if want.Verdict == result.Unsafe || want.Verdict == result.Unknown && !got.AnyDepth {
				fail("proved (%s), but the explicit checker says %s %v", got.Proof, want.Verdict, want.Limits)
			}
			if cert.Sys != nil {
				recheck(t, fail, &cert)
				outcome += ", invariant re-checked"
			}
		case result.Unsafe:
			if want.Verdict != result.Unsafe {
				fail("a violation, but the explicit checker says %s %v", want.Verdict, want.Limits)
			}
		case result.Unknown:
			if len(got.Limits) == 0 {
				fail("unknown without a reason")
			}
			if want.Verdict == result.Unknown && got.Has(result.LimitDepth) {
				outcome = "both stop at the depth bound"
			}
		}
		counts[outcome]++
	}
	logOutcomes(t, programs, start, counts)
	// The mix must exercise both answers, and PDR's invariants.
	// (With -short, one each: a loaded machine times more of them out.)
	want := 2
	if testing.Short() {
		want = 1
	}
	for k, need := range map[string]int{"prove unsafe, explicit unsafe": want, "prove safe, explicit safe": want, "prove safe, explicit safe, invariant re-checked": 1} {
		if counts[k] < need {
			t.Errorf("only %d programs with %q, want %d: the generated programs do not exercise the proofs", counts[k], k, need)
		}
	}
}

// recheck writes a certificate, reads it back and checks the invariant it
// holds on a fresh solver.
func recheck(t *testing.T, fail func(string, ...any), cert *method.Certificate) {
	t.Helper()
	var b strings.Builder
	if err := cert.WriteCertificate(&b); err != nil {
		fail("writing the certificate: %v", err)
		return
	}
	inv, err := method.ReadCertificate(cert.Sys, b.String())
	if err != nil {
		fail("reading the certificate: %v\n%s", err, b.String())
		return
	}
	var s solver.Solver = sat.New()
	if z3, err := smt.New(); err == nil {
		s.Close()
		s = z3
	}
	defer s.Close()
	// The target the proof names, and the violation itself.
	for _, target := range []ts.Lit{cert.Target, cert.Sys.Bad[encode.PropViolation].Lit} {
		if err := engine.CheckInvariant(context.Background(), cert.Sys, s, target, inv); err != nil {
			fail("the certificate does not check: %v\n%s", err, b.String())
		}
	}
}
