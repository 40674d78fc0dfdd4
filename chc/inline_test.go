package chc

import (
	"slices"
	"testing"

	"bmc/ts"
)

// Inline resolves away exactly the predicates with one clause of their
// own that is not recursive and that some clause uses.
func TestInline(t *testing.T) {
	tests := []struct {
		name  string
		build func(s *System)
		gone  []string // the predicates resolved away
	}{
		{"chain", func(s *System) {
			a, b := s.NewPred("A", []string{"x"}), s.NewPred("B", []string{"x"})
			x := s.AIG.NewInput("x")
			s.Add(&Atom{a, []ts.Lit{ts.True}}, nil, ts.True, "a")
			s.Add(&Atom{b, []ts.Lit{x.Not()}}, []Atom{{a, []ts.Lit{x}}}, ts.True, "b")
			s.Add(nil, []Atom{{b, []ts.Lit{ts.False}}}, ts.True, "q")
		}, []string{"A", "B"}},
		{"the counter: Inv has two clauses, Full one", func(s *System) {
			*s = *newCounter(true).sys
		}, []string{"Full"}},
		{"a predicate of one clause that uses itself", func(s *System) {
			p := s.NewPred("P", []string{"x"})
			x, y := s.AIG.NewInput("x"), s.AIG.NewInput("y")
			s.Add(&Atom{p, []ts.Lit{x}}, []Atom{{p, []ts.Lit{y}}}, s.AIG.Eq(x, y.Not()), "step")
			s.Add(nil, []Atom{{p, []ts.Lit{ts.True}}}, ts.True, "q")
		}, nil},
		{"used by no clause", func(s *System) {
			p := s.NewPred("P", nil)
			s.Add(&Atom{p, nil}, nil, ts.True, "p")
			s.Add(nil, nil, ts.False, "q") // left out: its constraint is false
		}, nil},
		{"used twice in one clause", func(s *System) {
			p, q := s.NewPred("P", []string{"x"}), s.NewPred("Q", nil)
			x, y := s.AIG.NewInput("x"), s.AIG.NewInput("y")
			s.Add(&Atom{p, []ts.Lit{x}}, nil, ts.True, "p")
			s.Add(&Atom{q, nil}, []Atom{{p, []ts.Lit{x}}, {p, []ts.Lit{y}}}, s.AIG.Xor(x, y), "q")
			s.Add(&Atom{q, nil}, []Atom{{q, nil}}, ts.True, "loop")
			s.Add(nil, []Atom{{q, nil}}, ts.True, "bad")
		}, []string{"P"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New()
			tt.build(s)
			il := Inline(s)
			var kept, gone []string
			for _, p := range il.System.Preds {
				kept = append(kept, p.Name)
			}
			for _, p := range s.Preds {
				if !slices.Contains(kept, p.Name) {
					gone = append(gone, p.Name)
				}
			}
			if !slices.Equal(gone, tt.gone) || il.Removed() != len(tt.gone) {
				t.Errorf("resolved away %v (Removed %d), want %v", gone, il.Removed(), tt.gone)
			}
		})
	}
}

// A derivation of the inlined counter expands to the original's.
func TestInlineExpand(t *testing.T) {
	k := newCounter(true)
	il := Inline(k.sys)
	d, err := il.System.Complete(t.Context(), counterGround(il.System, 3), newSAT())
	if err != nil {
		t.Fatal(err)
	}
	if err := il.System.CheckDerivation(d); err != nil {
		t.Fatal(err)
	}
	full := il.Expand(d)
	if err := k.sys.CheckDerivation(full); err != nil {
		t.Fatalf("expanded: %v", err)
	}
	if got, want := full.Height(), d.Height()+1; got != want {
		t.Errorf("expanded height %d, want %d (Full's clause back in)", got, want)
	}
}

// counterGround is the ground derivation of the inlined counter's query
// through steps increments of Inv.
func counterGround(s *System, steps int) *Ground {
	inv := s.Preds[0]
	g := &Ground{Pred: inv, Args: []bool{false, false}}
	for n := 1; n <= steps; n++ {
		g = &Ground{Pred: inv, Args: []bool{n&1 == 1, n&2 == 2}, Body: []*Ground{g}}
	}
	return &Ground{Body: []*Ground{g}}
}
