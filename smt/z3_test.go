//go:build !noz3

package smt

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"
)

func newContext(t *testing.T) *Context {
	t.Helper()
	c, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// mustCheck checks s under the assumptions and fails t on an error.
func mustCheck(t *testing.T, s *Solver, assumptions ...Term) Result {
	t.Helper()
	r, err := s.CheckAssumptions(assumptions...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestVersion(t *testing.T) {
	if !Available || !strings.HasPrefix(Version(), "4.") {
		t.Fatalf("Available %v, Version %q", Available, Version())
	}
}

func TestBoolTerms(t *testing.T) {
	c := newContext(t)
	a, b := c.Const("a"), c.Const("b")
	tests := []struct {
		name string
		f    Term
		want Result
	}{
		{"true", c.True(), Sat},
		{"false", c.False(), Unsat},
		{"a and not a", c.And(a, c.Not(a)), Unsat},
		{"a or not a", c.Or(a, c.Not(a)), Sat},
		{"empty and", c.And(), Sat},
		{"empty or", c.Or(), Unsat},
		{"single and", c.And(c.False()), Unsat},
		{"xor self", c.Xor(a, a), Unsat},
		{"not iff self", c.Not(c.Iff(a, a)), Unsat},
		{"not eq self", c.Not(c.Eq(a, a)), Unsat},
		{"implies contrapositive", c.Not(c.Iff(c.Implies(a, b), c.Implies(c.Not(b), c.Not(a)))), Unsat},
		{"ite", c.Not(c.Eq(c.Ite(a, b, c.Not(b)), c.Iff(a, b))), Unsat},
		{"xor is not iff", c.Not(c.Eq(c.Xor(a, b), c.Not(c.Iff(a, b)))), Unsat},
		{"three-way or", c.And(c.Or(a, b, c.Const("c")), c.Not(a), c.Not(b)), Sat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := c.NewSolver()
			defer s.Close()
			s.Assert(tt.f)
			if got := mustCheck(t, s); got != tt.want {
				t.Fatalf("%v: got %v, want %v", tt.f, got, tt.want)
			}
		})
	}
}

func TestBoolEval(t *testing.T) {
	c := newContext(t)
	a, b, d := c.Const("a"), c.Const("b"), c.Const("d")
	s := c.NewSolver()
	s.Assert(a)
	s.Assert(c.Not(b))
	if r := mustCheck(t, s); r != Sat {
		t.Fatal(r)
	}
	m := s.Model()
	defer m.Close()
	tests := []struct {
		f    Term
		want bool
	}{
		{a, true},
		{b, false},
		{c.And(a, b), false},
		{c.Or(a, b), true},
		{c.Xor(a, b), true},
		{c.Implies(b, a), true},
		{c.Implies(a, b), false},
		{c.Ite(a, c.True(), c.False()), true},
		{c.Iff(a, b), false},
		{c.Or(d, c.Not(d)), true}, // d is left open; completion picks a value
	}
	for _, tt := range tests {
		got, err := m.EvalBool(tt.f)
		if err != nil || got != tt.want {
			t.Errorf("%v: got %v, %v; want %v", tt.f, got, err, tt.want)
		}
	}
	// Without completion an open constant stays as it is; completion gives
	// it a value and (Z3 4.8.12) records that value in the model.
	e := c.Const("e")
	if v, err := m.Eval(e, false); err != nil || v != e {
		t.Errorf("without completion: %v, %v; want e", v, err)
	}
	if _, err := m.EvalBool(e); err != nil {
		t.Errorf("completion of an open constant: %v", err)
	}
	if _, err := m.EvalUint64(a); err == nil {
		t.Errorf("EvalUint64 of a Boolean succeeded")
	}
}

func TestBVEval(t *testing.T) {
	c := newContext(t)
	v8 := func(v uint64) Term { return c.BVVal(v, 8) }
	tests := []struct {
		name  string
		f     Term
		want  uint64
		width int
	}{
		{"add", c.BVAdd(v8(3), v8(4)), 7, 8},
		{"add wraps", c.BVAdd(v8(200), v8(100)), 44, 8},
		{"sub wraps", c.BVSub(v8(1), v8(2)), 255, 8},
		{"mul wraps", c.BVMul(v8(16), v8(17)), 16, 8},
		{"neg", c.BVNeg(v8(1)), 255, 8},
		{"and", c.BVAnd(v8(0xf0), v8(0x3c)), 0x30, 8},
		{"or", c.BVOr(v8(0xf0), v8(0x0c)), 0xfc, 8},
		{"xor", c.BVXor(v8(0xff), v8(0x0f)), 0xf0, 8},
		{"not", c.BVNot(v8(0)), 0xff, 8},
		{"shl", c.BVShl(v8(0x81), v8(1)), 0x02, 8},
		{"lshr", c.BVLShr(v8(0x81), v8(1)), 0x40, 8},
		{"extract", c.Extract(7, 4, v8(0xab)), 0xa, 4},
		{"extract bit", c.Extract(0, 0, v8(0xab)), 1, 1},
		{"concat", c.Concat(c.BVVal(0xa, 4), c.BVVal(0xb, 4)), 0xab, 8},
		{"zero ext", c.ZeroExt(4, c.BVVal(0xf, 4)), 0x0f, 8},
		{"sign ext", c.SignExt(4, c.BVVal(0x8, 4)), 0xf8, 8},
		{"value is truncated", c.BVVal(0x1ff, 8), 0xff, 8},
		{"64 bits", c.BVAdd(c.BVVal(1<<63, 64), c.BVVal(1<<63, 64)), 0, 64},
		{"ite", c.Ite(c.BVULT(v8(1), v8(2)), v8(10), v8(20)), 10, 8},
	}
	s := c.NewSolver()
	if r := mustCheck(t, s); r != Sat {
		t.Fatal(r)
	}
	m := s.Model()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if w := tt.f.Sort().Width(); w != tt.width {
				t.Errorf("width %d, want %d", w, tt.width)
			}
			got, err := m.EvalUint64(tt.f)
			if err != nil || got != tt.want {
				t.Errorf("%v: got %#x, %v; want %#x", tt.f, got, err, tt.want)
			}
		})
	}

	preds := []struct {
		name string
		f    Term
		want bool
	}{
		{"ult", c.BVULT(v8(1), v8(255)), true},
		{"ult equal", c.BVULT(v8(7), v8(7)), false},
		{"ule equal", c.BVULE(v8(7), v8(7)), true},
		{"slt", c.BVSLT(v8(255), v8(1)), true}, // -1 < 1
		{"sle", c.BVSLE(v8(1), v8(255)), false},
		{"eq", c.Eq(c.BVAdd(v8(255), v8(1)), v8(0)), true},
	}
	for _, tt := range preds {
		got, err := m.EvalBool(tt.f)
		if err != nil || got != tt.want {
			t.Errorf("%s: %v: got %v, %v; want %v", tt.name, tt.f, got, err, tt.want)
		}
	}
	if _, err := m.EvalUint64(c.BVVal(1, 65)); err != nil {
		t.Errorf("65-bit 1: %v", err)
	}
	if _, err := m.EvalUint64(c.Concat(c.BVVal(1, 1), c.BVVal(0, 64))); err == nil {
		t.Errorf("2^64 fitted in a uint64")
	}
}

func TestBVSolve(t *testing.T) {
	c := newContext(t)
	x, y := c.BVConst("x", 8), c.BVConst("y", 8)
	s := c.NewSolver()
	s.Assert(c.Eq(c.BVAdd(x, c.BVVal(1, 8)), c.BVVal(0, 8))) // x = 255
	s.Assert(c.Eq(c.Concat(c.Extract(3, 0, y), c.Extract(7, 4, y)), c.BVVal(0x12, 8)))
	if r := mustCheck(t, s); r != Sat {
		t.Fatal(r)
	}
	m := s.Model()
	if v, err := m.EvalUint64(x); err != nil || v != 255 {
		t.Errorf("x = %d, %v; want 255", v, err)
	}
	if v, err := m.EvalUint64(y); err != nil || v != 0x21 {
		t.Errorf("y = %#x, %v; want 0x21", v, err)
	}
	if !strings.Contains(m.String(), "x") {
		t.Errorf("model %q", m.String())
	}
	s.Assert(c.BVULT(x, c.BVVal(255, 8)))
	if r := mustCheck(t, s); r != Unsat {
		t.Fatal(r)
	}
}

func TestTermsAreHashConsed(t *testing.T) {
	c := newContext(t)
	a, b := c.Const("a"), c.Const("b")
	if c.And(a, b) != c.And(a, b) || c.Const("a") != a {
		t.Fatal("equal terms differ")
	}
	if c.And(a, b) == c.And(b, a) {
		t.Log("Z3 sorts the arguments of and") // either is fine
	}
	if a.ID() == b.ID() {
		t.Fatal("distinct terms share an ID")
	}
	if got := c.BVAdd(c.BVConst("x", 8), c.BVVal(1, 8)).String(); got != "(bvadd x #x01)" {
		t.Errorf("String: %q", got)
	}
	if got := c.BVSort(8).String(); got != "(_ BitVec 8)" {
		t.Errorf("Sort.String: %q", got)
	}
	if !a.Sort().IsBool() || a.Sort().IsBV() {
		t.Errorf("a's sort %v", a.Sort())
	}
}

func TestPushPop(t *testing.T) {
	c := newContext(t)
	x := c.Const("x")
	s := c.NewSolver()
	s.Assert(x)
	s.Push()
	s.Assert(c.Not(x))
	if n := s.NumScopes(); n != 1 {
		t.Fatalf("NumScopes %d", n)
	}
	if r := mustCheck(t, s); r != Unsat {
		t.Fatalf("inside the scope: %v", r)
	}
	s.Pop(1)
	if r := mustCheck(t, s); r != Sat {
		t.Fatalf("after Pop: %v", r)
	}
	s.Push()
	s.Push()
	s.Assert(c.False())
	s.Pop(2)
	if n := s.NumScopes(); n != 0 {
		t.Fatalf("NumScopes %d after Pop(2)", n)
	}
	if r := mustCheck(t, s); r != Sat {
		t.Fatalf("after Pop(2): %v", r)
	}
	smt2 := s.ToSMT2()
	if !strings.Contains(smt2, "declare-fun x") || !strings.Contains(smt2, "(assert x)") {
		t.Errorf("ToSMT2:\n%s", smt2)
	}
	s.Assert(c.Not(x))
	if r := mustCheck(t, s); r != Unsat {
		t.Fatal(r)
	}
	s.Reset()
	if r := mustCheck(t, s); r != Sat {
		t.Fatalf("after Reset: %v", r)
	}
}

func TestUnsatCore(t *testing.T) {
	c := newContext(t)
	a, b, d := c.Const("a"), c.Const("b"), c.Const("d")
	s := c.NewSolver()
	s.Assert(c.Not(c.And(a, b)))
	s.Assert(c.Or(d, c.Not(a)))
	tests := []struct {
		name        string
		assumptions []Term
		want        Result
		core        []Term // the core must be a subset holding these
	}{
		{"a b d", []Term{a, b, d}, Unsat, []Term{a, b}},
		{"d a b", []Term{d, a, b}, Unsat, []Term{a, b}},
		{"a, not d", []Term{a, c.Not(d)}, Unsat, []Term{a, c.Not(d)}},
		{"a d", []Term{a, d}, Sat, nil},
		{"none", nil, Sat, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if r := mustCheck(t, s, tt.assumptions...); r != tt.want {
				t.Fatalf("got %v, want %v", r, tt.want)
			}
			if tt.want != Unsat {
				return
			}
			core := s.UnsatCore()
			in := map[Term]bool{}
			for _, x := range tt.assumptions {
				in[x] = true
			}
			for _, x := range core {
				if !in[x] {
					t.Errorf("core has %v, not an assumption", x)
				}
			}
			for _, x := range tt.core {
				found := false
				for _, y := range core {
					found = found || x == y
				}
				if !found {
					t.Errorf("core %v lacks %v", core, x)
				}
			}
			if r := mustCheck(t, s, core...); r != Unsat {
				t.Errorf("core %v alone: %v", core, r)
			}
		})
	}
	if r := mustCheck(t, s, a, b); r != Unsat {
		t.Fatal(r)
	}
	s.Push()
	s.Assert(c.False())
	if r := mustCheck(t, s, a); r != Unsat || len(s.UnsatCore()) != 0 {
		t.Errorf("unsat without the assumptions: %v, core %v", r, s.UnsatCore())
	}
	s.Pop(1)
}

// pigeonhole asserts that n pigeons sit in n-1 holes, one to a hole, which
// is unsatisfiable and hard for resolution.
func pigeonhole(c *Context, s *Solver, n int) {
	p := make([][]Term, n)
	for i := range p {
		p[i] = make([]Term, n-1)
		for j := range p[i] {
			p[i][j] = c.Const("p_" + string(rune('a'+i)) + "_" + string(rune('a'+j)))
		}
		s.Assert(c.Or(p[i]...))
	}
	for j := 0; j < n-1; j++ {
		for i := 0; i < n; i++ {
			for k := i + 1; k < n; k++ {
				s.Assert(c.Not(c.And(p[i][j], p[k][j])))
			}
		}
	}
}

func TestCheckContextDeadline(t *testing.T) {
	c := newContext(t)
	s := c.NewSolver()
	pigeonhole(c, s, 10)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	r, err := s.CheckContext(ctx)
	took := time.Since(start)
	if r != Unknown || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, %v; want unknown, deadline exceeded", r, err)
	}
	if took > time.Second {
		t.Fatalf("took %v", took)
	}
	t.Logf("interrupted after %v: %s", took, s.ReasonUnknown())

	// The solver and the context still work.
	x := c.Const("x")
	s.Push()
	s.Assert(c.False())
	if r := mustCheck(t, s); r != Unsat {
		t.Fatalf("pigeonhole and false: %v", r)
	}
	s.Pop(1)
	s2 := c.NewSolver()
	s2.Assert(x)
	if r := mustCheck(t, s2); r != Sat {
		t.Fatalf("after the interrupt: %v", r)
	}
	if v, err := s2.Model().EvalBool(x); err != nil || !v {
		t.Fatalf("x = %v, %v", v, err)
	}

	// An already cancelled context does not reach Z3.
	done, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if r, err := s2.CheckContext(done); r != Unknown || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled context: %v, %v", r, err)
	}
	// A context that is never done is fine too.
	if r, err := s2.CheckContext(context.Background()); r != Sat || err != nil {
		t.Fatalf("background context: %v, %v", r, err)
	}
}

func TestInterruptFromAnotherGoroutine(t *testing.T) {
	c := newContext(t)
	s := c.NewSimpleSolver()
	pigeonhole(c, s, 10)
	stop := make(chan struct{})
	go func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		time.Sleep(50 * time.Millisecond)
		for {
			s.Interrupt()
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	start := time.Now()
	r, err := s.Check()
	close(stop)
	if r != Unknown || err != nil {
		t.Fatalf("got %v, %v", r, err)
	}
	if took := time.Since(start); took > time.Second {
		t.Fatalf("took %v", took)
	}
}

func TestInterruptWhenIdle(t *testing.T) {
	c := newContext(t)
	x := c.Const("x")
	s := c.NewSolver()
	s.Assert(x)
	c.Interrupt() // no check under way: nothing happens
	if r := mustCheck(t, s); r != Sat {
		t.Fatalf("check after an idle Interrupt: %v", r)
	}
	m := s.Model()
	if v, err := m.EvalBool(c.And(x, x)); err != nil || !v {
		t.Fatalf("eval: %v, %v", v, err)
	}

	// A Z3_interrupt that lands just after a check leaves the context
	// cancelled (Z3 4.8.12), and evaluation fails; clearCancel repairs it.
	c.interruptNow()
	_, err := m.EvalBool(c.Or(x, c.Const("y")))
	t.Logf("eval in a cancelled context: %v", err)
	c.clearCancel()
	if v, err := m.EvalBool(c.Or(x, c.Const("y"))); err != nil || !v {
		t.Fatalf("eval after clearCancel: %v, %v", v, err)
	}
}

// TestNoCtrlC checks that Z3 leaves SIGINT to Go during a check: the
// signal reaches signal.Notify and the check goes on until its deadline.
func TestNoCtrlC(t *testing.T) {
	c := newContext(t)
	s := c.NewSolver()
	pigeonhole(c, s, 10)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT)
	defer signal.Stop(sig)
	go func() {
		time.Sleep(50 * time.Millisecond)
		syscall.Kill(os.Getpid(), syscall.SIGINT)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	r, _ := s.CheckContext(ctx)
	if r != Unknown || time.Since(start) < 150*time.Millisecond {
		t.Fatalf("check ended with %v after %v: SIGINT stopped it", r, time.Since(start))
	}
	select {
	case <-sig:
	case <-time.After(time.Second):
		t.Fatal("SIGINT did not reach Go")
	}
}

func TestErrors(t *testing.T) {
	c := newContext(t)
	a := c.Const("a")
	x8, x4 := c.BVConst("x", 8), c.BVConst("y", 4)
	s := c.NewSolver()
	other, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	tests := []struct {
		name string
		f    func()
	}{
		{"extract hi < lo", func() { c.Extract(2, 5, x8) }},
		{"extract past the width", func() { c.Extract(8, 0, x8) }},
		{"extract negative", func() { c.Extract(-1, 0, x8) }},
		{"bvadd widths differ", func() { c.BVAdd(x8, x4) }},
		{"and of a bit-vector", func() { c.And(a, x8) }},
		{"not of a bit-vector", func() { c.Not(x8) }},
		{"eq sorts differ", func() { c.Eq(a, x8) }},
		{"ite branches differ", func() { c.Ite(a, a, x8) }},
		{"bvult of Booleans", func() { c.BVULT(a, a) }},
		{"width 0", func() { c.BVSort(0) }},
		{"const of a zero sort", func() { c.ConstOf("z", Sort{}) }},
		{"zero term", func() { c.Not(Term{}) }},
		{"term of another context", func() { c.Not(other.Const("a")) }},
		{"assert a bit-vector", func() { s.Assert(x8) }},
		{"pop too far", func() { s.Pop(3) }},
		{"width of Bool", func() { a.Sort().Width() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Catch(tt.f)
			var e *Error
			if !errors.As(err, &e) || e.Code == OK || e.Msg == "" {
				t.Fatalf("got %v, want a *Error", err)
			}
			t.Logf("%v (code %d)", err, e.Code)
		})
	}

	// The context still works, and the failed calls left no stale error.
	s.Assert(c.Eq(c.BVAdd(x8, c.BVVal(1, 8)), c.BVVal(0, 8)))
	if r := mustCheck(t, s); r != Sat {
		t.Fatal(r)
	}
	if v, err := s.Model().EvalUint64(x8); err != nil || v != 255 {
		t.Fatalf("x = %d, %v", v, err)
	}

	// No model after unsat.
	s.Assert(c.False())
	if r := mustCheck(t, s); r != Unsat {
		t.Fatal(r)
	}
	if err := Catch(func() { s.Model() }); err == nil {
		t.Error("Model after unsat succeeded")
	}

	// Catch lets other panics through.
	func() {
		defer func() {
			if r := recover(); r != "other" {
				t.Errorf("recovered %v", r)
			}
		}()
		Catch(func() { panic("other") })
	}()
}

func TestClose(t *testing.T) {
	c, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	s := c.NewSolver()
	s.Assert(c.Const("a"))
	if r := mustCheck(t, s); r != Sat {
		t.Fatal(r)
	}
	m := s.Model()
	s2 := c.NewSolver()
	s2.Close()
	s2.Close()
	c.Close() // frees s and m
	c.Close()
	m.Close()
	s.Close()
	c.Interrupt()
	if err := Catch(func() { c.Const("b") }); err == nil {
		t.Fatal("closed context still makes terms")
	}
	if err := Catch(func() { s2.Assert(c.True()) }); err == nil {
		t.Fatal("closed solver still asserts")
	}
}
