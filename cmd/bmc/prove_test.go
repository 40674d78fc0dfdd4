package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bmc/driver"
	"bmc/engine"
	"bmc/ir"
	"bmc/method"
	"bmc/sat"
)

// TestProve runs `bmc prove` on our examples and on bad requests: the
// exit status, and what the output must say.
func TestProve(t *testing.T) {
	cert := filepath.Join(t.TempDir(), "cert.txt")
	safe := writeProg(t, `decl a, b;
void main() begin
  a, b := F, F;
  while (*) do
    a, b := b, a;
    assert(!a);
  od
end
`)
	tests := []struct {
		args []string
		code int
		want string // in stdout or stderr
	}{
		{[]string{"prove", "--quiet", "../../examples/seq_counter.bpl"}, exitViolation, "unsafe: violation found ("},
		{[]string{"prove", "--quiet", "--method", "pdr", "../../examples/seq_counter.bpl"}, exitViolation, "unsafe: violation found (pdr+gini"},
		{[]string{"prove", "--quiet", "--method", "pdr", "--max-states", "10", safe}, exitBadInput, "--max-states does not go with --method: it limits the exhaustive search"},
		{[]string{"prove", "--quiet", "../../examples/peterson.bpl"}, exitSafe, "exhaustive search"},
		// A k-induction stopped by the time limit is a timeout, with the
		// advice on --timeout (it was worded "context deadline exceeded").
		{[]string{"prove", "--quiet", "--method", "kind", "--timeout", "1s", "../../examples/peterson.bpl"}, exitUnknown,
			"incomplete: timeout: no proof that a violation is unreachable"},
		{[]string{"prove", "--quiet", "--method", "kind", "--timeout", "1s", "../../examples/dekker.bpl"}, exitUnknown,
			"to decide it: a longer --timeout"},
		{[]string{"prove", "--quiet", "--method", "kind", "../../examples/seq_counter.bpl"}, exitViolation, "assertion failed"},
		{[]string{"prove", "--quiet", "--certificate", cert, safe}, exitSafe, "safe: proved"},
		{[]string{"prove", "--quiet", "--method", "kind", safe}, exitSafe, "-inductive; k-induction (improved)"},
		{[]string{"prove", "--quiet", "--method", "kind-simple", "--max-k", "1", "../../examples/seq_counter.bpl"}, exitUnknown, "counterexample to induction"},
		{[]string{"prove", "--quiet", "--depth", "4", "../../examples/seq_recursion.bpl"}, exitUnknown, "depth bound reached"},
		{[]string{"prove", "--method", "bogus", safe}, exitBadInput, `unknown proof method "bogus"`},
		{[]string{"prove", "--method", "kind", "--certificate", cert, safe}, exitBadInput, "--certificate does not go with --method kind or kind-simple"},
		{[]string{"prove", "--method", "reach", "--certificate", cert, safe}, exitBadInput, "reach's invariant is a decision diagram"},
		{[]string{"prove", "--seq", "lazy", safe}, exitBadInput, "--seq goes with -k or --switches"},
		{[]string{"prove", "--max-k", "0", safe}, exitBadInput, "--max-k must be at least 1"},
		// K-induction with amplification: Fig. 5 of its paper and our
		// Example 4.1, which needs the envelope; with the solvers and
		// with decision diagrams.
		{[]string{"prove", "--quiet", "--method", "amplify", "../../examples/kind_fig5.bpl"}, exitSafe, "K-inductive with amplification, K = 1 (the envelope"},
		{[]string{"prove", "--quiet", "--method", "amplify", "--solver", "gini", "../../examples/kind_fig5.bpl"}, exitSafe, "candidates refuted"},
		{[]string{"prove", "--quiet", "--method", "amplify", "--solver", "bdd", "../../examples/kind_envelope.bpl"}, exitSafe, "K = 1 (the envelope (Eqn. 9)"},
		{[]string{"prove", "--quiet", "--method", "amplify", "--solver", "bdd", "--no-envelope", "--max-rounds", "2", "../../examples/kind_envelope.bpl"}, exitUnknown,
			"counterexample to induction at K = 2"},
		{[]string{"prove", "--quiet", "--method", "amplify", "--solver", "bdd", "../../examples/peterson_buggy.bpl"}, exitViolation, "assertion failed"},
		{[]string{"prove", "--quiet", "--method", "reach", "../../examples/dekker.bpl"}, exitSafe, "the reachable states are an inductive invariant"},
		{[]string{"prove", "--quiet", "--method", "reach", "--solver", "bdd", "../../examples/peterson_buggy.bpl"}, exitViolation, "assertion failed"},
		{[]string{"prove", "--quiet", "--method", "reach", "--switches", "2", "../../examples/peterson.bpl"}, exitSafe, "reachability+bdd"},
		{[]string{"prove", "--quiet", "--method", "amplify", "../../examples/kind_fig1.bpl"}, exitUnknown, "does not prove recursive programs"},
		{[]string{"prove", "--method", "amplify", "-k", "2", "../../examples/peterson.bpl"}, exitBadInput, "drop -k/--switches"},
		{[]string{"prove", "--method", "amplify", safe}, exitBadInput, "--method amplify proves concurrent programs"},
		{[]string{"prove", "--max-rounds", "3", "../../examples/peterson.bpl"}, exitBadInput, "--max-rounds and --no-envelope go with --method amplify"},
		{[]string{"prove", "--method", "amplify", "--max-rounds", "0", "../../examples/peterson.bpl"}, exitBadInput, "--max-rounds must be at least 1"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args[1:], " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tc.args, &stdout, &stderr)
			out := stdout.String() + stderr.String()
			if code != tc.code || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, want %d with %q:\n%s", code, tc.code, tc.want, out)
			}
		})
	}
	// The certificate of the proof above re-checks on a fresh solver.
	text, err := os.ReadFile(cert)
	if err != nil {
		t.Fatal(err)
	}
	p, err := load(safe, ir.Options{}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	var c method.Certificate
	o := method.Options{Solver: "gini", Bounds: method.DefaultBounds(), Proof: method.ProofOptions{Method: "pdr", Certificate: &c}}
	if _, err := driver.Prove(t.Context(), p, o); err != nil || c.Sys == nil {
		t.Fatalf("no proof to rebuild the system from: %v", err)
	}
	inv, err := method.ReadCertificate(c.Sys, string(text))
	if err != nil {
		t.Fatal(err)
	}
	s := sat.New()
	defer s.Close()
	if err := engine.CheckInvariant(t.Context(), c.Sys, s, c.Target, inv); err != nil {
		t.Errorf("the certificate written by bmc prove does not check: %v\n%s", err, text)
	}
}
