package decompile

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"bmc/internal/halt"
	"bmc/ir"
	"bmc/lang"
)

// Write prints p as a Boolean program in the classic syntax: `decl`
// globals, `void`/`bool<n>` functions with `begin decl ...; ... end`,
// labels, `goto`, `if (e) then ... fi`, `while (e) do ... od`, `assume`,
// `assert`, `skip`, parallel assignments with `constrain`, calls,
// `return`, `dead`, `*`, `schoose`, `T`/`F`, `enforce`; concurrent
// programs add `lock`, `thread`, acquire/release/tryacquire,
// atomic_begin/atomic_end, start_thread, end_thread and `x$`.
// Loading the text with ir.Load (default Options) gives a program with
// the same behaviour (the same verdicts under every bound; a step may be
// split into a few, see below). Nothing is written when an error is
// returned; an error names the construct that has no faithful text.
//
// How the graph is printed:
//   - Each node is one statement (or a short run of statements), printed
//     in flow order: a successor that is printed next is reached by falling
//     through, any other by `goto L;` (one extra step, local to the
//     thread; a `skip` followed by it becomes the goto). Two complementary
//     Skip edges (guards c and !c) become `if (c) then ... [else ...] fi`
//     or `while (c) do ... od` (dominators and post-dominators find the
//     bodies and where branches meet); several unguarded Skip edges become
//     `goto L1, L2;`; any other node with several edges is
//     `goto L1, ..., Ln;` followed by one labelled block per edge.
//   - A guard is folded into the step when the step allows it (assume for
//     Skip, constrain for Assign and Havoc); otherwise it becomes
//     `assume(g);` right before the step. Atomic marks that the step cannot
//     carry become `atomic_begin;` before it or `atomic_end;` after it. In
//     a concurrent program such a split is refused when another thread
//     could observe it (the guard reads shared state, the step can block
//     inside the new atomic section, or the section would end after a
//     callee or before a return).
//   - A Return with nil Values is `return;` (arbitrary results in a bool
//     function; the last one may be left to falling off `end`). An Error
//     node carries its own target label, or else p.Targets[0] (`error`
//     without targets), followed by `error` when that is not a default
//     label, so that both --target and the defaults find it; no other
//     node carries a target label. InitStop carries `endinit`. Original
//     labels are kept where a goto needs a label and they are
//     unambiguous; other jump labels are L<node> or L<node>_<edge>,
//     avoiding every label, variable and function name.
//   - Threads: a program with one thread instance and no spawns is printed
//     without the `thread` keyword, its thread being `main` (the classic
//     sequential program); so are programs whose threads already follow
//     the Getafix naming rule. Otherwise thread functions are marked
//     `thread`; a thread with Count n > 1 is printed n times (name,
//     name_2, ...). Unbounded thread counts are rejected.
//
// Names: every character outside [A-Za-z0-9_] becomes '_', a leading
// digit gets a '_' prefix, keywords and `_` get a '_' suffix, and a name
// already taken in its name space gets _2, _3, ... (globals and locks
// first, then functions, then each function's parameters and locals, in
// program order, so the result is deterministic and collision-free).
// Function names are further adjusted so that the front end reads them
// as intended: only p.Init is `init`; `acquire`, `release`, `tryacquire`
// and `print` get a '_' suffix; Atomic procedures contain
// `__VERIFIER_atomic_` and no other does; without the `thread` keyword,
// exactly the thread functions follow the Getafix rule (`main` or
// thread...). A local that would hide a global or lock its function uses
// is renamed.
//
// A sequentialization with many contexts prints to hundreds of megabytes,
// so ctx is watched; when it ends first, nothing is written and the error
// is its cause.
func Write(ctx context.Context, w io.Writer, p *ir.Program) error {
	return WriteSyntax(ctx, w, p, Classic)
}

// WriteSyntax prints p in the given syntax: Classic is Write's; Moped
// (see Syntax) takes only programs already within Moped's reach and
// refuses the others with an error naming the construct.
func WriteSyntax(ctx context.Context, w io.Writer, p *ir.Program, syntax Syntax) (err error) {
	defer halt.Recover(&err)
	f := &formatter{p: p, ctx: ctx, dialect: syntax.dialect()}
	var buf bytes.Buffer
	f.program(&buf)
	if f.err != nil {
		return f.err
	}
	_, err = w.Write(buf.Bytes())
	return err
}

type formatter struct {
	ctx        context.Context
	p          *ir.Program
	dialect    *dialect
	err        error
	sequential bool // one thread instance, no spawns: interleaving is moot
	getafix    bool // threads chosen by the Getafix naming rule, not `thread`
	// atomicVar is the global printed as `atomic` in Getafix style, whose
	// constant assignments the front end reads as atomic marks.
	atomicVar  *ir.Var
	shared     map[*ir.Var]bool // globals and locals written by broadcasts
	globalName map[*ir.Var]string
	lockName   map[*ir.Lock]string
	procName   map[*ir.Proc]string
	count      map[*ir.Proc]int // thread instances per thread procedure
	allNames   map[string]bool
	errLabels  []string
}

func (f *formatter) errorf(pos lang.Pos, format string, args ...any) {
	if f.err != nil {
		return
	}
	msg := fmt.Sprintf(format, args...)
	if pos.IsValid() {
		file := f.p.File
		if file == "" {
			file = "program"
		}
		msg = fmt.Sprintf("%s:%s: %s", file, pos, msg)
	}
	f.err = fmt.Errorf("decompile: %s", msg)
}
