//go:build !noz3

package smt

// #cgo LDFLAGS: -lz3
// #include <stdlib.h>
// #include <z3.h>
import "C"

import (
	"context"
	"fmt"
	"sync"
	"time"
	"unsafe"
)

// Available reports whether this build has Z3 (it is false with the tag
// noz3).
const Available = true

// Version is the version of the libz3 that bmc runs with, such as
// "4.8.12.0".
func Version() string { return C.GoString(C.Z3_get_full_version()) }

// ErrorCode is a Z3 error code (Z3_error_code).
type ErrorCode int

// The Z3 error codes.
const (
	OK ErrorCode = iota
	SortError
	IndexOutOfBounds
	InvalidArg
	ParserError
	NoParser
	InvalidPattern
	MemoutFail
	FileAccessError
	InternalFatal
	InvalidUsage
	DecRefError
	Exception
)

// Error is an error reported by Z3, or a misuse the binding caught before
// calling Z3 (a zero Term, a Term of another Context, a closed Context).
//
// Z3's default error handler prints a message and calls exit(1). A Context
// therefore installs no handler (Z3_set_error_handler(ctx, NULL)): Z3 then
// only records an error code, which the binding reads after each call that
// can fail. What happens next depends on the kind of call:
//
//   - Building terms and sorts, Assert, Push, Pop, Model, UnsatCore, ... fail
//     only when misused (ill-sorted arguments, Extract with hi < lo, popping
//     more scopes than were pushed, asking for a model after unsat), much
//     like indexing a slice out of range. They panic with an *Error, which
//     Catch (or recover) turns back into an error value. The Context stays
//     usable afterwards.
//   - Check, CheckAssumptions, CheckContext and the Model's Eval functions
//     can fail at run time (out of memory, a Z3 exception, a value that is
//     not a numeral) and return the *Error as their error result.
//
// No Z3 error ever ends the process.
type Error struct {
	Op   string    // the binding's operation, such as "Extract"
	Code ErrorCode // Z3's error code
	Msg  string    // Z3's message
}

func (e *Error) Error() string { return "z3: " + e.Op + ": " + e.Msg }

// Catch calls f and returns the *Error that f panicked with, or nil if f
// returned normally. Other panics pass through.
func Catch(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			err = e
		}
	}()
	f()
	return nil
}

// A Context owns every Z3 object made through it: terms, sorts, solvers
// and models. It is made with Z3_mk_context, not Z3_mk_context_rc, so Z3
// keeps every term alive until the Context is closed and the binding needs
// no reference counting for terms (solvers and models are reference
// counted all the same, and the binding does that). The price is memory:
// terms are never freed before Close, which suits bmc, whose adapter keeps
// a table of all its terms anyway.
//
// A Context is not safe for concurrent use, except that Interrupt may be
// called from any goroutine at any time, even after Close.
type Context struct {
	ctx C.Z3_context

	mu          sync.Mutex // guards ctx against Close, and the two below
	checking    bool       // a check is under way on one of ctx's solvers
	interrupted bool       // Z3_interrupt was called during that check

	live     map[releaser]struct{} // solvers and models to free on Close
	scratch  C.Z3_solver           // an empty solver, see clearCancel
	boolSort C.Z3_sort
}

type releaser interface{ release() }

// NewContext makes a Z3 context.
func NewContext() (*Context, error) {
	propositionalParams.Do(setPropositionalParams)
	cfg := C.Z3_mk_config()
	if cfg == nil {
		return nil, &Error{Op: "NewContext", Code: MemoutFail, Msg: "Z3_mk_config failed"}
	}
	ctx := C.Z3_mk_context(cfg)
	C.Z3_del_config(cfg)
	if ctx == nil {
		return nil, &Error{Op: "NewContext", Code: MemoutFail, Msg: "Z3_mk_context failed"}
	}
	// The first thing: without it any error would exit the process.
	C.Z3_set_error_handler(ctx, nil)
	c := &Context{ctx: ctx, live: map[releaser]struct{}{}}
	if err := Catch(func() { c.boolSort = c.BoolSort().s }); err != nil {
		C.Z3_del_context(ctx)
		return nil, err
	}
	return c, nil
}

var propositionalParams sync.Once

// setPropositionalParams sets, once for the process, Z3's global
// parameters for the formulas bmc gives it, which are propositional and
// asked many times under assumptions (PDR, k-induction). Without
// relevancy propagation (smt.relevancy=0) the SMT core assigns every
// atom and skips relevancy bookkeeping, and the models it builds are
// taken as they are (model.compact, model.completion off; Value still
// evaluates with completion). Each query's model otherwise dominated:
// PDR on dekker.bpl's eager sequentialization at 0 switches took 211 s,
// 63% of it in Z3_solver_get_model, and takes 13 s with these.
func setPropositionalParams() {
	for _, kv := range [][2]string{{"smt.relevancy", "0"}, {"model.compact", "false"}, {"model.completion", "false"}} {
		k, v := C.CString(kv[0]), C.CString(kv[1])
		C.Z3_global_param_set(k, v)
		C.free(unsafe.Pointer(k))
		C.free(unsafe.Pointer(v))
	}
}

// Close frees the context with all its solvers, models and terms. Using
// any of them afterwards panics. Close must not run while a check is under
// way in another goroutine. Closing twice is harmless.
func (c *Context) Close() {
	if c.ctx == nil {
		return
	}
	for r := range c.live {
		r.release()
	}
	c.live = nil
	if c.scratch != nil {
		C.Z3_solver_dec_ref(c.ctx, c.scratch)
		c.scratch = nil
	}
	c.mu.Lock()
	ctx := c.ctx
	c.ctx = nil
	c.mu.Unlock()
	C.Z3_del_context(ctx)
}

// Interrupt asks the check under way on any of c's solvers to stop; that
// check then returns Unknown (reason "interrupted" or "canceled"). It returns at once, does
// nothing when no check is under way, and is safe to call from another
// goroutine, even after Close.
//
// Z3 clears its cancel flag when a check starts, so an Interrupt in the
// instant a check begins can be lost. CheckContext therefore repeats it
// until the check returns.
func (c *Context) Interrupt() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ctx == nil || !c.checking {
		return
	}
	c.interrupted = true
	C.Z3_interrupt(c.ctx)
}

// beginCheck and endCheck bracket a check so that Interrupt reaches Z3 only
// while a check is under way.
func (c *Context) beginCheck() {
	c.mu.Lock()
	c.checking = true
	c.interrupted = false
	c.mu.Unlock()
}

func (c *Context) endCheck() {
	c.mu.Lock()
	c.checking = false
	interrupted := c.interrupted
	c.interrupted = false
	c.mu.Unlock()
	if interrupted {
		c.clearCancel()
	}
}

// clearCancel undoes an interrupt that came too late. Z3_interrupt (Z3
// 4.8.12 and later) also raises the cancel flag of the context's resource
// limit, and only a check resets it. An interrupt that lands after the
// check has reset the flag on its way out leaves it raised, and then
// Model.Eval and the like fail with "canceled". A check of an empty
// solver, outside beginCheck/endCheck so that nothing interrupts it, puts
// the flag down again.
func (c *Context) clearCancel() {
	if c.scratch == nil {
		c.scratch = C.Z3_mk_simple_solver(c.ctx)
		c.check("clearCancel")
		C.Z3_solver_inc_ref(c.ctx, c.scratch)
		c.check("clearCancel")
		c.noCtrlC("clearCancel", c.scratch)
	}
	C.Z3_solver_check(c.ctx, c.scratch)
	c.check("clearCancel")
}

// interruptNow calls Z3_interrupt whether or not a check is under way. It
// is for tests of clearCancel.
func (c *Context) interruptNow() {
	c.mu.Lock()
	defer c.mu.Unlock()
	C.Z3_interrupt(c.ctx)
}

// z3 returns the C context, panicking if c is closed.
func (c *Context) z3(op string) C.Z3_context {
	if c == nil || c.ctx == nil {
		panic(&Error{Op: op, Code: InvalidUsage, Msg: "use of a closed or nil Context"})
	}
	return c.ctx
}

// lastError returns the error of the last Z3 call, or nil, and clears it:
// a few Z3 functions do not reset the code themselves, and a stale code
// must not be blamed on them.
func (c *Context) lastError(op string) *Error {
	code := C.Z3_get_error_code(c.ctx)
	if code == C.Z3_OK {
		return nil
	}
	e := &Error{Op: op, Code: ErrorCode(code), Msg: C.GoString(C.Z3_get_error_msg(c.ctx, code))}
	C.Z3_set_error(c.ctx, C.Z3_OK)
	return e
}

// check panics with the error of the last Z3 call, if any.
func (c *Context) check(op string) {
	if e := c.lastError(op); e != nil {
		panic(e)
	}
}

// noCtrlC turns off Z3's SIGINT handling for s. By default Z3 installs its
// own SIGINT handler with signal(2) for the length of every check, which
// takes Ctrl-C away from the Go runtime and, on the way out, reinstalls
// the Go handler without the flags (SA_SIGINFO, SA_ONSTACK) it needs.
func (c *Context) noCtrlC(op string, s C.Z3_solver) {
	p := C.Z3_mk_params(c.ctx)
	c.check(op)
	C.Z3_params_inc_ref(c.ctx, p)
	defer C.Z3_params_dec_ref(c.ctx, p)
	name := C.CString("ctrl_c")
	defer C.free(unsafe.Pointer(name))
	C.Z3_params_set_bool(c.ctx, p, C.Z3_mk_string_symbol(c.ctx, name), false)
	c.check(op)
	C.Z3_solver_set_params(c.ctx, s, p)
	c.check(op)
}

// ---------------------------------------------------------------- sorts

// A Sort is the type of a Term: Bool or a bit-vector of some width.
type Sort struct {
	c *Context
	s C.Z3_sort
}

// BoolSort is the Boolean sort.
func (c *Context) BoolSort() Sort {
	s := C.Z3_mk_bool_sort(c.z3("BoolSort"))
	c.check("BoolSort")
	return Sort{c, s}
}

// BVSort is the sort of bit-vectors of the given width (at least 1).
func (c *Context) BVSort(width int) Sort {
	ctx := c.z3("BVSort")
	if width < 0 {
		panic(&Error{Op: "BVSort", Code: InvalidArg, Msg: fmt.Sprintf("negative width %d", width)})
	}
	s := C.Z3_mk_bv_sort(ctx, C.uint(width))
	c.check("BVSort")
	return Sort{c, s}
}

// IsBool reports whether s is the Boolean sort.
func (s Sort) IsBool() bool {
	return s.s != nil && C.Z3_get_sort_kind(s.c.z3("Sort.IsBool"), s.s) == C.Z3_BOOL_SORT
}

// IsBV reports whether s is a bit-vector sort.
func (s Sort) IsBV() bool {
	return s.s != nil && C.Z3_get_sort_kind(s.c.z3("Sort.IsBV"), s.s) == C.Z3_BV_SORT
}

// Width is the width of a bit-vector sort.
func (s Sort) Width() int {
	if !s.IsBV() {
		panic(&Error{Op: "Sort.Width", Code: SortError, Msg: "not a bit-vector sort"})
	}
	return int(C.Z3_get_bv_sort_size(s.c.ctx, s.s))
}

func (s Sort) String() string {
	if s.s == nil {
		return "<nil sort>"
	}
	str := C.GoString(C.Z3_sort_to_string(s.c.z3("Sort.String"), s.s))
	s.c.check("Sort.String")
	return str
}

// ---------------------------------------------------------------- terms

// A Term is a Z3 expression. Terms are values; Z3 hash-conses them, so two
// Terms of a Context built alike are equal (==). The zero Term is invalid.
type Term struct {
	c *Context
	a C.Z3_ast
}

// IsZero reports whether t is the zero Term.
func (t Term) IsZero() bool { return t.a == nil }

// Context is the Context that made t.
func (t Term) Context() *Context { return t.c }

func (t Term) String() string {
	if t.a == nil {
		return "<nil term>"
	}
	s := C.GoString(C.Z3_ast_to_string(t.c.z3("Term.String"), t.a))
	t.c.check("Term.String")
	return s
}

// Sort is t's sort.
func (t Term) Sort() Sort {
	c := t.c
	s := C.Z3_get_sort(c.z3("Term.Sort"), c.ast("Term.Sort", t))
	c.check("Term.Sort")
	return Sort{c, s}
}

// ID is Z3's unique number for t among the terms of its Context.
func (t Term) ID() uint32 {
	id := C.Z3_get_ast_id(t.c.z3("Term.ID"), t.c.ast("Term.ID", t))
	t.c.check("Term.ID")
	return uint32(id)
}

// ast checks that t is a valid Term of c and returns its Z3_ast.
func (c *Context) ast(op string, t Term) C.Z3_ast {
	if t.a == nil {
		panic(&Error{Op: op, Code: InvalidArg, Msg: "zero Term"})
	}
	if t.c != c {
		panic(&Error{Op: op, Code: InvalidArg, Msg: "Term of another Context"})
	}
	return t.a
}

// term wraps the result of a Z3 call made for op.
func (c *Context) term(op string, a C.Z3_ast) Term {
	c.check(op)
	if a == nil {
		panic(&Error{Op: op, Code: Exception, Msg: "Z3 returned no term"})
	}
	return Term{c, a}
}

// un, bin and tern apply a Z3 term constructor.
func (c *Context) un(op string, f func(C.Z3_context, C.Z3_ast) C.Z3_ast, a Term) Term {
	ctx := c.z3(op)
	return c.term(op, f(ctx, c.ast(op, a)))
}

func (c *Context) bin(op string, f func(C.Z3_context, C.Z3_ast, C.Z3_ast) C.Z3_ast, a, b Term) Term {
	ctx := c.z3(op)
	return c.term(op, f(ctx, c.ast(op, a), c.ast(op, b)))
}

// asts checks ts and returns their Z3_asts in a slice that C may read (it
// holds C pointers only).
func (c *Context) asts(op string, ts []Term) []C.Z3_ast {
	as := make([]C.Z3_ast, len(ts))
	for i, t := range ts {
		as[i] = c.ast(op, t)
	}
	return as
}

// Const is the Boolean constant (a variable, in SAT terms) named name. The
// same name gives the same Term.
func (c *Context) Const(name string) Term { return c.constOf("Const", name, c.boolSort) }

// BVConst is the bit-vector constant named name of the given width.
func (c *Context) BVConst(name string, width int) Term {
	return c.constOf("BVConst", name, c.BVSort(width).s)
}

// ConstOf is the constant named name of sort s.
func (c *Context) ConstOf(name string, s Sort) Term {
	if s.s == nil || s.c != c {
		panic(&Error{Op: "ConstOf", Code: InvalidArg, Msg: "invalid Sort"})
	}
	return c.constOf("ConstOf", name, s.s)
}

func (c *Context) constOf(op, name string, s C.Z3_sort) Term {
	ctx := c.z3(op)
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	sym := C.Z3_mk_string_symbol(ctx, cs)
	c.check(op)
	return c.term(op, C.Z3_mk_const(ctx, sym, s))
}

// True is the Boolean constant true.
func (c *Context) True() Term { return c.term("True", C.Z3_mk_true(c.z3("True"))) }

// False is the Boolean constant false.
func (c *Context) False() Term { return c.term("False", C.Z3_mk_false(c.z3("False"))) }

// Not is ¬a.
func (c *Context) Not(a Term) Term {
	return c.un("Not", func(x C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_not(x, a) }, a)
}

// And is the conjunction of ts; true when ts is empty.
func (c *Context) And(ts ...Term) Term {
	if len(ts) == 0 {
		return c.True()
	}
	ctx := c.z3("And")
	as := c.asts("And", ts)
	return c.term("And", C.Z3_mk_and(ctx, C.uint(len(as)), &as[0]))
}

// Or is the disjunction of ts; false when ts is empty.
func (c *Context) Or(ts ...Term) Term {
	if len(ts) == 0 {
		return c.False()
	}
	ctx := c.z3("Or")
	as := c.asts("Or", ts)
	return c.term("Or", C.Z3_mk_or(ctx, C.uint(len(as)), &as[0]))
}

// Xor is a ⊕ b for Booleans a and b.
func (c *Context) Xor(a, b Term) Term {
	return c.bin("Xor", func(x C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_xor(x, a, b) }, a, b)
}

// Iff is a ⇔ b for Booleans a and b.
func (c *Context) Iff(a, b Term) Term {
	return c.bin("Iff", func(x C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_iff(x, a, b) }, a, b)
}

// Implies is a ⇒ b.
func (c *Context) Implies(a, b Term) Term {
	return c.bin("Implies", func(x C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_implies(x, a, b) }, a, b)
}

// Eq is a = b for terms a and b of the same sort.
func (c *Context) Eq(a, b Term) Term {
	return c.bin("Eq", func(x C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_eq(x, a, b) }, a, b)
}

// Ite is "if cond then a else b", for a and b of the same sort.
func (c *Context) Ite(cond, a, b Term) Term {
	ctx := c.z3("Ite")
	return c.term("Ite", C.Z3_mk_ite(ctx, c.ast("Ite", cond), c.ast("Ite", a), c.ast("Ite", b)))
}

// BVVal is the bit-vector numeral v of the given width; bits of v above
// the width are dropped.
func (c *Context) BVVal(v uint64, width int) Term {
	s := c.BVSort(width)
	if width < 64 {
		v &= 1<<uint(width) - 1
	}
	return c.term("BVVal", C.Z3_mk_unsigned_int64(c.ctx, C.uint64_t(v), s.s))
}

// BVAdd is a + b modulo 2^width.
func (c *Context) BVAdd(a, b Term) Term {
	return c.bin("BVAdd", func(x C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvadd(x, a, b) }, a, b)
}

// BVSub is a - b modulo 2^width.
func (c *Context) BVSub(a, b Term) Term {
	return c.bin("BVSub", func(x C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvsub(x, a, b) }, a, b)
}

// BVMul is a * b modulo 2^width.
func (c *Context) BVMul(a, b Term) Term {
	return c.bin("BVMul", func(x C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvmul(x, a, b) }, a, b)
}

// BVNeg is -a modulo 2^width.
func (c *Context) BVNeg(a Term) Term {
	return c.un("BVNeg", func(x C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvneg(x, a) }, a)
}

// BVAnd is the bitwise a & b.
func (c *Context) BVAnd(a, b Term) Term {
	return c.bin("BVAnd", func(x C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvand(x, a, b) }, a, b)
}

// BVOr is the bitwise a | b.
func (c *Context) BVOr(a, b Term) Term {
	return c.bin("BVOr", func(x C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvor(x, a, b) }, a, b)
}

// BVXor is the bitwise a ^ b.
func (c *Context) BVXor(a, b Term) Term {
	return c.bin("BVXor", func(x C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvxor(x, a, b) }, a, b)
}

// BVNot is the bitwise ^a.
func (c *Context) BVNot(a Term) Term {
	return c.un("BVNot", func(x C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvnot(x, a) }, a)
}

// BVShl is a << b (zero when b ≥ width).
func (c *Context) BVShl(a, b Term) Term {
	return c.bin("BVShl", func(x C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvshl(x, a, b) }, a, b)
}

// BVLShr is the logical a >> b (zero when b ≥ width).
func (c *Context) BVLShr(a, b Term) Term {
	return c.bin("BVLShr", func(x C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvlshr(x, a, b) }, a, b)
}

// BVULT is the unsigned a < b.
func (c *Context) BVULT(a, b Term) Term {
	return c.bin("BVULT", func(x C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvult(x, a, b) }, a, b)
}

// BVULE is the unsigned a ≤ b.
func (c *Context) BVULE(a, b Term) Term {
	return c.bin("BVULE", func(x C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvule(x, a, b) }, a, b)
}

// BVSLT is the signed (two's complement) a < b.
func (c *Context) BVSLT(a, b Term) Term {
	return c.bin("BVSLT", func(x C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvslt(x, a, b) }, a, b)
}

// BVSLE is the signed (two's complement) a ≤ b.
func (c *Context) BVSLE(a, b Term) Term {
	return c.bin("BVSLE", func(x C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvsle(x, a, b) }, a, b)
}

// Extract is bits hi down to lo of a, a bit-vector of width hi-lo+1. It
// needs width(a) > hi ≥ lo ≥ 0.
func (c *Context) Extract(hi, lo int, a Term) Term {
	ctx := c.z3("Extract")
	x := c.ast("Extract", a)
	if hi < 0 || lo < 0 {
		panic(&Error{Op: "Extract", Code: InvalidArg, Msg: fmt.Sprintf("negative index in [%d:%d]", hi, lo)})
	}
	return c.term("Extract", C.Z3_mk_extract(ctx, C.uint(hi), C.uint(lo), x))
}

// Concat is the bit-vector with a's bits above b's.
func (c *Context) Concat(a, b Term) Term {
	return c.bin("Concat", func(x C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_concat(x, a, b) }, a, b)
}

// ZeroExt is a with n zero bits added at the top.
func (c *Context) ZeroExt(n int, a Term) Term {
	ctx := c.z3("ZeroExt")
	x := c.ast("ZeroExt", a)
	if n < 0 {
		panic(&Error{Op: "ZeroExt", Code: InvalidArg, Msg: fmt.Sprintf("negative extension %d", n)})
	}
	return c.term("ZeroExt", C.Z3_mk_zero_ext(ctx, C.uint(n), x))
}

// SignExt is a with n copies of its top bit added at the top.
func (c *Context) SignExt(n int, a Term) Term {
	ctx := c.z3("SignExt")
	x := c.ast("SignExt", a)
	if n < 0 {
		panic(&Error{Op: "SignExt", Code: InvalidArg, Msg: fmt.Sprintf("negative extension %d", n)})
	}
	return c.term("SignExt", C.Z3_mk_sign_ext(ctx, C.uint(n), x))
}

// ---------------------------------------------------------------- solvers

// Result is the outcome of a check.
type Result int

// The results of a check, in the order of solver.Status.
const (
	Unknown Result = iota // interrupted, or Z3 gave up (see ReasonUnknown)
	Sat
	Unsat
)

func (r Result) String() string {
	switch r {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// A Solver decides the conjunction of the Terms asserted into it,
// incrementally. Close it when done, or let the Context's Close do it.
type Solver struct {
	c *Context
	s C.Z3_solver
}

// NewSolver makes a solver with Z3's default strategy (Z3_mk_solver): a
// preprocessing, non-incremental tactic for a first check without
// assumptions or scopes, and Z3's incremental SMT core from the first Push
// or CheckAssumptions on.
func (c *Context) NewSolver() *Solver {
	return c.newSolver("NewSolver", C.Z3_mk_solver(c.z3("NewSolver")))
}

// NewSimpleSolver makes a solver that always uses Z3's incremental SMT
// core, without preprocessing (Z3_mk_simple_solver).
func (c *Context) NewSimpleSolver() *Solver {
	return c.newSolver("NewSimpleSolver", C.Z3_mk_simple_solver(c.z3("NewSimpleSolver")))
}

func (c *Context) newSolver(op string, s C.Z3_solver) *Solver {
	c.check(op)
	if s == nil {
		panic(&Error{Op: op, Code: Exception, Msg: "Z3 returned no solver"})
	}
	C.Z3_solver_inc_ref(c.ctx, s)
	c.check(op)
	c.noCtrlC(op, s)
	sv := &Solver{c, s}
	c.live[sv] = struct{}{}
	return sv
}

// Close frees the solver. Closing twice is harmless.
func (s *Solver) Close() {
	if s.s == nil || s.c.ctx == nil {
		return
	}
	delete(s.c.live, s)
	s.release()
}

func (s *Solver) release() {
	C.Z3_solver_dec_ref(s.c.ctx, s.s)
	s.s = nil
}

func (s *Solver) z3(op string) C.Z3_context {
	ctx := s.c.z3(op)
	if s.s == nil {
		panic(&Error{Op: op, Code: InvalidUsage, Msg: "use of a closed Solver"})
	}
	return ctx
}

// Assert adds the Boolean term t.
func (s *Solver) Assert(t Term) {
	ctx := s.z3("Assert")
	C.Z3_solver_assert(ctx, s.s, s.c.ast("Assert", t))
	s.c.check("Assert")
}

// Push opens a scope: Pop drops the assertions made after it.
func (s *Solver) Push() {
	C.Z3_solver_push(s.z3("Push"), s.s)
	s.c.check("Push")
}

// Pop closes the innermost n scopes.
func (s *Solver) Pop(n int) {
	ctx := s.z3("Pop")
	if n < 0 {
		panic(&Error{Op: "Pop", Code: InvalidArg, Msg: fmt.Sprintf("negative count %d", n)})
	}
	C.Z3_solver_pop(ctx, s.s, C.uint(n))
	s.c.check("Pop")
}

// NumScopes is the number of open scopes.
func (s *Solver) NumScopes() int {
	n := C.Z3_solver_get_num_scopes(s.z3("NumScopes"), s.s)
	s.c.check("NumScopes")
	return int(n)
}

// Reset removes every assertion and scope.
func (s *Solver) Reset() {
	C.Z3_solver_reset(s.z3("Reset"), s.s)
	s.c.check("Reset")
}

// Check decides the assertions.
func (s *Solver) Check() (Result, error) { return s.CheckAssumptions() }

// CheckAssumptions decides the assertions together with the assumptions,
// which hold for this check only. Z3 wants each assumption to be a Boolean
// constant or the negation of one. After Unsat, UnsatCore tells which
// assumptions were needed. An interrupted check returns Unknown and no
// error.
func (s *Solver) CheckAssumptions(assumptions ...Term) (Result, error) {
	ctx := s.z3("Check")
	as := s.c.asts("Check", assumptions)
	s.c.beginCheck()
	var r C.Z3_lbool
	if len(as) == 0 {
		r = C.Z3_solver_check(ctx, s.s)
	} else {
		r = C.Z3_solver_check_assumptions(ctx, s.s, C.uint(len(as)), &as[0])
	}
	err := s.c.lastError("Check")
	s.c.endCheck()
	if err != nil {
		return Unknown, err
	}
	switch r {
	case C.Z3_L_TRUE:
		return Sat, nil
	case C.Z3_L_FALSE:
		return Unsat, nil
	}
	return Unknown, nil
}

// interruptEvery is how often CheckContext repeats Interrupt once its
// context is done.
const interruptEvery = 5 * time.Millisecond

// interruptible runs call, a Z3 call on c, interrupting it when ctx is
// done: Z3 clears its cancel flag when a check or query starts, so the
// interrupt is repeated until call returns.
func (c *Context) interruptible(ctx context.Context, call func()) {
	if ctx.Done() == nil { // never done
		call()
		return
	}
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		select {
		case <-done:
			return
		case <-ctx.Done():
		}
		tick := time.NewTicker(interruptEvery)
		defer tick.Stop()
		for {
			c.Interrupt()
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	call()
	close(done)
	<-stopped
}

// CheckContext is CheckAssumptions that gives up when ctx is done: it then
// returns Unknown and ctx.Err(). It returns without calling Z3 when ctx is
// already done.
func (s *Solver) CheckContext(ctx context.Context, assumptions ...Term) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Unknown, err
	}
	var r Result
	var err error
	s.c.interruptible(ctx, func() { r, err = s.CheckAssumptions(assumptions...) })
	if r == Unknown && err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	return r, err
}

// Interrupt stops the check under way, as Context.Interrupt does. It is
// safe to call from another goroutine.
func (s *Solver) Interrupt() { s.c.Interrupt() }

// ReasonUnknown is Z3's reason for the last Unknown, such as "canceled".
func (s *Solver) ReasonUnknown() string {
	r := C.GoString(C.Z3_solver_get_reason_unknown(s.z3("ReasonUnknown"), s.s))
	s.c.check("ReasonUnknown")
	return r
}

// UnsatCore is, after a check that returned Unsat, a subset of its
// assumptions that is unsatisfiable with the assertions.
func (s *Solver) UnsatCore() []Term {
	ctx := s.z3("UnsatCore")
	v := C.Z3_solver_get_unsat_core(ctx, s.s)
	s.c.check("UnsatCore")
	C.Z3_ast_vector_inc_ref(ctx, v)
	defer C.Z3_ast_vector_dec_ref(ctx, v)
	n := int(C.Z3_ast_vector_size(ctx, v))
	core := make([]Term, n)
	for i := range core {
		core[i] = s.c.term("UnsatCore", C.Z3_ast_vector_get(ctx, v, C.uint(i)))
	}
	return core
}

// Model is the model found by the last check, which must have returned
// Sat. Close it when done, or let the Context's Close do it.
func (s *Solver) Model() *Model {
	ctx := s.z3("Model")
	m := C.Z3_solver_get_model(ctx, s.s)
	s.c.check("Model")
	if m == nil {
		panic(&Error{Op: "Model", Code: InvalidUsage, Msg: "no model"})
	}
	C.Z3_model_inc_ref(ctx, m)
	s.c.check("Model")
	mo := &Model{s.c, m}
	s.c.live[mo] = struct{}{}
	return mo
}

// ToSMT2 is the solver's assertions in SMT-LIB 2 syntax.
func (s *Solver) ToSMT2() string {
	str := C.GoString(C.Z3_solver_to_string(s.z3("ToSMT2"), s.s))
	s.c.check("ToSMT2")
	return str
}

// ---------------------------------------------------------------- models

// A Model assigns values to the constants of a satisfiable check.
type Model struct {
	c *Context
	m C.Z3_model
}

// Close frees the model. Closing twice is harmless.
func (m *Model) Close() {
	if m.m == nil || m.c.ctx == nil {
		return
	}
	delete(m.c.live, m)
	m.release()
}

func (m *Model) release() {
	C.Z3_model_dec_ref(m.c.ctx, m.m)
	m.m = nil
}

func (m *Model) z3(op string) C.Z3_context {
	ctx := m.c.z3(op)
	if m.m == nil {
		panic(&Error{Op: op, Code: InvalidUsage, Msg: "use of a closed Model"})
	}
	return ctx
}

func (m *Model) String() string {
	s := C.GoString(C.Z3_model_to_string(m.z3("Model.String"), m.m))
	m.c.check("Model.String")
	return s
}

// Eval is t's value in m. With completion, constants the model leaves open
// get a default value, so the result is a value (true, false or a
// numeral); without it, they stay as they are.
func (m *Model) Eval(t Term, completion bool) (Term, error) {
	ctx := m.z3("Eval")
	x := m.c.ast("Eval", t)
	var v C.Z3_ast
	ok := C.Z3_model_eval(ctx, m.m, x, C.bool(completion), &v)
	if err := m.c.lastError("Eval"); err != nil {
		return Term{}, err
	}
	if !ok || v == nil {
		return Term{}, &Error{Op: "Eval", Code: Exception, Msg: "cannot evaluate " + t.String()}
	}
	return Term{m.c, v}, nil
}

// EvalBool is the value of the Boolean term t, with model completion.
func (m *Model) EvalBool(t Term) (bool, error) {
	v, err := m.Eval(t, true)
	if err != nil {
		return false, err
	}
	switch C.Z3_get_bool_value(m.c.ctx, v.a) {
	case C.Z3_L_TRUE:
		return true, nil
	case C.Z3_L_FALSE:
		return false, nil
	}
	if err := m.c.lastError("EvalBool"); err != nil {
		return false, err
	}
	return false, &Error{Op: "EvalBool", Code: SortError, Msg: "not a Boolean value: " + v.String()}
}

// EvalUint64 is the value of the bit-vector term t, with model completion.
// It fails for values that do not fit in 64 bits.
func (m *Model) EvalUint64(t Term) (uint64, error) {
	v, err := m.Eval(t, true)
	if err != nil {
		return 0, err
	}
	ctx := m.c.ctx
	if !bool(C.Z3_is_numeral_ast(ctx, v.a)) || !v.Sort().IsBV() {
		m.c.lastError("EvalUint64")
		return 0, &Error{Op: "EvalUint64", Code: SortError, Msg: "not a bit-vector value: " + v.String()}
	}
	var u C.uint64_t
	if !bool(C.Z3_get_numeral_uint64(ctx, v.a, &u)) {
		m.c.lastError("EvalUint64")
		return 0, &Error{Op: "EvalUint64", Code: InvalidArg, Msg: "value does not fit in 64 bits: " + v.String()}
	}
	return uint64(u), nil
}
