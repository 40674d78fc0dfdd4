package engine

import (
	"context"

	"bmc/solver"
	"bmc/ts"
)

// Unrolling maps the variables of a transition system at each time frame
// to solver formulas: frame 0 starts in an initial state, frame k+1's
// latches are frame k's next-state functions, and every frame has fresh
// inputs.
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
	frames    [][]solver.Lit // frames[k][v]: variable v at time k
}

// NewUnrolling prepares the unrolling of sys into b.
func NewUnrolling(sys *ts.System, b solver.Builder) *Unrolling {
	return &Unrolling{Sys: sys, B: b}
}

// At returns literal l at time k, building frames up to k as needed.
func (u *Unrolling) At(l ts.Lit, k int) solver.Lit {
	u.Extend(context.Background(), k)
	x := u.frames[k][l.Var()]
	if l.IsNeg() {
		return u.B.Not(x)
	}
	return x
}

// Extend builds the frames up to k. A frame of a large system takes a
// while, so ctx is watched while it is built; when ctx ends first, the
// frame is dropped and the error is ctx's cause.
func (u *Unrolling) Extend(ctx context.Context, k int) error {
	for len(u.frames) <= k {
		if err := u.addFrame(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (u *Unrolling) addFrame(ctx context.Context) error {
	k := len(u.frames)
	s, b := u.Sys, u.B
	f := make([]solver.Lit, s.NumVars())
	f[0] = b.Not(b.True())
	var fixed map[int]bool
	if u.Fixed != nil {
		fixed = u.Fixed(k)
	}
	lit := func(l ts.Lit) solver.Lit {
		x := f[l.Var()]
		if l.IsNeg() {
			return b.Not(x)
		}
		return x
	}
	for v := 1; v < s.NumVars(); v++ {
		if v%4096 == 0 && ctx.Err() != nil {
			return context.Cause(ctx)
		}
		switch s.Kind(v) {
		case ts.Input:
			f[v] = b.NewVar()
		case ts.Latch:
			li, _ := s.LatchOf(v)
			switch {
			case k > 0:
				// The previous frame is complete: take its next-state value.
				prev := u.frames[k-1]
				x := prev[li.Next.Var()]
				if li.Next.IsNeg() {
					x = b.Not(x)
				}
				f[v] = x
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
			if val, ok := fixed[v]; ok {
				f[v] = b.True()
				if !val {
					f[v] = b.Not(f[v])
				}
				continue
			}
			x, y := s.Operands(v)
			f[v] = b.And(lit(x), lit(y))
		}
	}
	u.frames = append(u.frames, f)
	return nil
}
