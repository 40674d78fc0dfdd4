package engine

import (
	"context"

	"bmc/solver"
	"bmc/ts"
)

// Unrolling maps the variables of a transition system at each time frame
// to solver formulas: frame 0 starts in an initial state, frame k+1's
// latches are frame k's next-state functions, and every frame has fresh
// inputs. A node is built when it is first asked for, with the nodes it
// reads, so that the solver holds only the cone of influence of what
// the queries mention (a step query of PDR reads frame 1's latches, not
// frame 1's logic; a BMC query at frame k, the cone of its target).
type Unrolling struct {
	Sys *ts.System
	B   solver.Builder
	// Fixed, if set, gives per frame nodes whose value is known on every
	// path that reaches the frame from an initial state through valid
	// steps (control reachability); they are built as constants, so that
	// what they select folds away. It does not go with FreeStart.
	Fixed func(k int) map[int]bool
	// FreeStart makes frame 0 any state, not an initial one: the
	// induction steps and invariant checks start anywhere.
	FreeStart bool
	frames    [][]solver.Lit  // frames[k][v]: variable v at time k; 0: not built
	fixed     []map[int]bool  // Fixed(k), once asked
	stack     []unrollPending // scratch for build
}

// unrollPending is a node of a frame that build has yet to finish.
type unrollPending struct{ v, k int }

// NewUnrolling prepares the unrolling of sys into b.
func NewUnrolling(sys *ts.System, b solver.Builder) *Unrolling {
	return &Unrolling{Sys: sys, B: b}
}

// At returns literal l at time k, building it (and what it reads) as
// needed.
func (u *Unrolling) At(l ts.Lit, k int) solver.Lit {
	u.Extend(context.Background(), k)
	u.fit()
	x := u.frames[k][l.Var()]
	if x == 0 {
		x = u.build(l.Var(), k)
	}
	if l.IsNeg() {
		return u.B.Not(x)
	}
	return x
}

// fit makes room in every frame for the nodes added to the system since
// the frames were made (the amplification engine adds its blocked cubes
// between queries).
func (u *Unrolling) fit() {
	n := u.Sys.NumVars()
	for k, f := range u.frames {
		if len(f) < n {
			u.frames[k] = append(f, make([]solver.Lit, n-len(f))...)
		}
	}
}

// Built returns l at time k if it has been built.
func (u *Unrolling) Built(l ts.Lit, k int) (solver.Lit, bool) {
	u.fit()
	if k >= len(u.frames) || u.frames[k][l.Var()] == 0 {
		return 0, false
	}
	x := u.frames[k][l.Var()]
	if l.IsNeg() {
		x = u.B.Not(x)
	}
	return x, true
}

// Extend makes room for the frames up to k. Nodes are built by At; ctx
// is kept for callers that watch it between frames.
func (u *Unrolling) Extend(ctx context.Context, k int) error {
	for len(u.frames) <= k {
		if err := ctx.Err(); err != nil {
			return context.Cause(ctx)
		}
		f := make([]solver.Lit, u.Sys.NumVars())
		f[0] = u.B.Not(u.B.True())
		u.frames = append(u.frames, f)
		var fixed map[int]bool
		if u.Fixed != nil {
			fixed = u.Fixed(len(u.frames) - 1)
		}
		u.fixed = append(u.fixed, fixed)
	}
	return nil
}

// build makes variable v at frame k after the nodes it reads, without
// recursion (a deep chain of gates would be a deep stack).
func (u *Unrolling) build(v, k int) solver.Lit {
	s, b := u.Sys, u.B
	lit := func(l ts.Lit, k int) solver.Lit {
		x := u.frames[k][l.Var()]
		if x != 0 && l.IsNeg() {
			return b.Not(x)
		}
		return x
	}
	u.stack = append(u.stack[:0], unrollPending{v, k})
	for len(u.stack) > 0 {
		top := u.stack[len(u.stack)-1]
		v, k := top.v, top.k
		f := u.frames[k]
		if f[v] != 0 {
			u.stack = u.stack[:len(u.stack)-1]
			continue
		}
		switch s.Kind(v) {
		case ts.Input:
			f[v] = b.NewVar()
		case ts.Latch:
			li, _ := s.LatchOf(v)
			switch {
			case k > 0:
				// Frame k's latch is frame k-1's next-state value.
				if x := lit(li.Next, k-1); x != 0 {
					f[v] = x
				} else {
					u.stack = append(u.stack, unrollPending{li.Next.Var(), k - 1})
					continue
				}
			case u.FreeStart:
				f[v] = b.NewVar()
			case li.Init == ts.Init0:
				f[v] = b.Not(b.True())
			case li.Init == ts.Init1:
				f[v] = b.True()
			default:
				f[v] = b.NewVar()
			}
		case ts.And:
			if val, ok := u.fixed[k][v]; ok {
				f[v] = b.True()
				if !val {
					f[v] = b.Not(f[v])
				}
				break
			}
			x, y := s.Operands(v)
			a, c := lit(x, k), lit(y, k)
			if a == 0 || c == 0 {
				if a == 0 {
					u.stack = append(u.stack, unrollPending{x.Var(), k})
				}
				if c == 0 {
					u.stack = append(u.stack, unrollPending{y.Var(), k})
				}
				continue
			}
			f[v] = b.And(a, c)
		}
		u.stack = u.stack[:len(u.stack)-1]
	}
	return u.frames[k][v]
}
