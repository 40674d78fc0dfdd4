package method

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"bmc/internal/progen"
	"bmc/ir"
	"bmc/result"
)

// TestAmplifyK pins the K at which K-induction with amplification proves
// programs built to need it: each is proved at K, and at --max-rounds
// K-1 ends with a counterexample to induction at K-1, by decision
// diagrams and (for the small K) by the candidate and run solvers, whose
// cubes of a smaller K carry over to the next (the handshake of 3).
func TestAmplifyK(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		k      int
		solver []SolverName
	}{
		{"handshake of 1", progen.HandshakePump(1), 2, []SolverName{"bdd", "gini"}},
		{"handshake of 3", progen.HandshakePump(3), 4, []SolverName{"bdd", "gini"}},
		{"handshake of 5", progen.HandshakePump(5), 6, []SolverName{"bdd"}},
		{"lock/unlock, 2 threads", progen.LockUnlock(2, 2), 2, []SolverName{"bdd", "gini"}},
	}
	for _, tc := range tests {
		for _, name := range tc.solver {
			t.Run(tc.name+" "+string(name), func(t *testing.T) {
				p, _, err := ir.Load(context.Background(), "x.bpl", []byte(tc.src), ir.Options{})
				if err != nil {
					t.Fatal(err)
				}
				o := Options{Solver: name, Bounds: DefaultBounds(), Proof: ProofOptions{MaxRounds: tc.k}}
				res, err := proveAmplify(context.Background(), p, o, nil)
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict != result.Safe || res.K != tc.k {
					t.Fatalf("proved at K = %d, want %d: %v %v %s", res.K, tc.k, err, res.Verdict, res.Proof)
				}
				o.Proof.MaxRounds = tc.k - 1
				res, err = proveAmplify(context.Background(), p, o, nil)
				want := fmt.Sprintf("counterexample to induction at K = %d", tc.k-1)
				if err != nil || res.Verdict != result.Unknown || res.CTI == nil || !strings.Contains(res.CTI.Violation, want) {
					t.Fatalf("at --max-rounds %d: %v %v, want %q", tc.k-1, err, res.Verdict, want)
				}
			})
		}
	}
}
