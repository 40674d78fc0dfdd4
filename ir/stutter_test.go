package ir

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// live lists the steps of pr a thread can take, as "stmt" for a step
// that is left and "stmt [false]" for one whose guard became false.
func live(pr *Proc) []string {
	var out []string
	for _, nd := range pr.Nodes {
		for _, e := range nd.Out {
			s := fmt.Sprintf("%d->%d %s", e.From, e.To, e.Stmt)
			if e.Disabled() {
				s += " [false]"
			}
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

func TestWithoutStutter(t *testing.T) {
	cases := []struct {
		name  string
		body  string
		cut   int
		loops bool // a loop is left
	}{
		{"spin loop", `while (g) do skip; od x := T;`, 2, false},
		{"empty spin loop", `while (g) do od x := T;`, 1, false},
		{"loop that writes", `while (g) do x := !x; od`, 0, true},
		{"waits unless it backs off", `while (g) do if (x) then g := F; fi od`, 1, true},
		{"nested spin", `while (g) do if (x) then g := F; while (x) do skip; od g := T; fi od`, 3, true},
		{"spin that asserts", `while (g) do assert(x); od`, 0, true},
		{"spin that asserts, then skips", `while (g) do assert(x); skip; od`, 1, true},
		{"entered by goto past the head", `if (*) then goto M; fi while (g) do M: skip; od`, 0, true},
		{"loop over a call", `while (g) do f(); od`, 0, true},
		{"loop over an atomic section", `while (g) do atomic_begin; atomic_end; od`, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "decl g, x;\nvoid f() begin end\nvoid main() begin " + c.body + " end\n"
			p := mustLoad(t, src, Options{})
			main := p.Procs[slices.IndexFunc(p.Procs, func(pr *Proc) bool { return pr.Name == "main" })]
			before := live(main)
			q, cut := WithoutStutter(p)
			if cut != c.cut {
				t.Errorf("cut %d steps, want %d\nbefore: %s", cut, c.cut, strings.Join(before, "; "))
			}
			if cut == 0 && q != p {
				t.Errorf("nothing cut, but a copy returned")
			}
			if got := live(main); !slices.Equal(got, before) {
				t.Errorf("p changed:\n%s\nwas\n%s", strings.Join(got, "; "), strings.Join(before, "; "))
			}
			qmain := q.Procs[main.Index]
			if got := len(LoopHeads(qmain)) > 0; got != c.loops {
				t.Errorf("loop left: %v, want %v\n%s", got, c.loops, strings.Join(live(qmain), "; "))
			}
			// The copy's steps are p's under the same IDs, with the
			// copy's procedures.
			for _, pr := range q.Procs {
				for _, nd := range pr.Nodes {
					for _, e := range nd.Out {
						if q.Edges[e.ID] != e || e.Proc != pr || p.Edges[e.ID].Stmt != e.Stmt {
							t.Errorf("step %d (%s) is not the copy's step of that ID", e.ID, e.Stmt)
						}
						if e.Callee != nil && q.Procs[e.Callee.Index] != e.Callee {
							t.Errorf("step %s calls a procedure of p", e.Stmt)
						}
					}
				}
			}
			if cut > 0 && q.Threads[0].Proc != q.Procs[q.Threads[0].Proc.Index] {
				t.Errorf("the thread runs a procedure of p")
			}
		})
	}
}
