package testsolvers

import (
	"testing"

	"bmc/sat"
	"bmc/smt"
	"bmc/solver"
)

// All returns a constructor per backend name.
func All(t testing.TB) map[string]func() solver.Solver {
	m := map[string]func() solver.Solver{"gini": func() solver.Solver { return sat.New() }}
	if smt.Available {
		m["z3"] = func() solver.Solver {
			s, err := smt.New()
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
	}
	return m
}
