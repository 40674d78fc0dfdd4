package ir_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"bmc/internal/progen"
	"bmc/ir"
)

func TestFindRing(t *testing.T) {
	example := func(name string) string {
		src, err := os.ReadFile(filepath.Join("..", "examples", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(src)
	}
	cases := []struct {
		name, src string
		ring      bool
	}{
		{"trylock philosophers", progen.Philosophers(5, false), true},
		{"three trylock philosophers", progen.Philosophers(3, false), true},
		{"ordered philosophers", progen.Philosophers(5, true), false},
		{"Burns", progen.Burns(4), false},
		{"two threads", progen.Philosophers(2, false), false},
		{"instances of one thread", example("bluetooth_fixed.bpl"), false},
		{"a ring of flags", `decl a, b, c;
void init() begin a, b, c := F, F, F; end
thread void t0() begin a := T; assert(!(b & c)); end
thread void t1() begin b := T; assert(!(a & c)); end
thread void t2() begin c := T; assert(!(b & a)); end`, true},
		{"one step off", `decl a, b, c;
void init() begin a, b, c := F, F, F; end
thread void t0() begin a := T; assert(!(b & c)); end
thread void t1() begin b := T; assert(!(a | c)); end
thread void t2() begin c := T; assert(!(b & a)); end`, false},
		{"init breaks it", `decl a, b, c;
void init() begin a, b, c := T, F, F; end
thread void t0() begin a := T; assert(!(b & c)); end
thread void t1() begin b := T; assert(!(a & c)); end
thread void t2() begin c := T; assert(!(b & a)); end`, false},
		{"a shared global the rotation keeps", `decl a, b, c, x;
void init() begin a, b, c, x := F, F, F, F; end
thread void t0() begin a := x; x := !x; end
thread void t1() begin b := x; x := !x; end
thread void t2() begin c := x; x := !x; end`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, _, err := ir.Load(context.Background(), "p.bpl", []byte(c.src), ir.Options{})
			if err != nil {
				t.Fatal(err)
			}
			r := ir.FindRing(p)
			if (r != nil) != c.ring {
				t.Fatalf("FindRing = %v, want a ring: %v", r, c.ring)
			}
			if r == nil {
				return
			}
			// One step on N times is the identity, on the globals as on
			// the locks: the rotation has order N.
			n := len(r.Procs)
			for _, perm := range [][]int{r.Globals, r.Locks} {
				for g := range perm {
					x := g
					for range n {
						x = perm[x]
					}
					if x != g {
						t.Errorf("%d steps on take %d to %d", n, g, x)
					}
				}
			}
		})
	}
}
