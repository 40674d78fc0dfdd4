package cover

import (
	"fmt"
	"slices"

	"bmc/ir"
	"bmc/result"
)

// thread is one thread of a witness as it runs.
type thread struct {
	state int32 // thread state; dead once it has ended
	role  string
}

// witness turns a covered element (id) into a schedule: the start
// configuration the matching chose, then the element chain's
// transitions, each taken by a thread that stands in its source state,
// ending with the failing one. Without an element (id < 0) the failure
// is init's.
func (b *backward) witness(out *Outcome, assign []int, id int32) *Outcome {
	var st *start
	var m []int32
	if id >= 0 {
		st, m = b.startFor(b.elems[id].g), b.elems[id].m
	}
	var chain []transition
	for ; id >= 0; id = b.elems[id].next {
		chain = append(chain, b.trans[b.elems[id].via])
	}
	return b.schedule(out, st, m, assign, chain)
}

// schedule makes out the violation that starts from st with the thread
// states m given to the instances assign (indices in f.instances) and
// takes the transitions of chain, the last one failing; st nil: init
// fails.
func (f *forward) schedule(out *Outcome, st *start, m []int32, assign []int, chain []transition) *Outcome {
	out.Verdict = result.Unsafe
	prog := *f.prog
	out.Program = &prog
	initPath := f.initFail
	var threads []thread
	if st == nil {
		prog.Threads = nil
	} else {
		initPath = st.init
		threads = f.startThreads(&prog, st, m, assign)
	}
	out.Depth = 1
	for _, ti := range initPath {
		f.record(out, f.initTrans[ti], 0)
	}
	out.Failure = f.initFailText
	return f.play(out, threads, chain)
}

// play appends the schedule of the transitions to out, each taken by a
// thread that stands in its source state, and fills in the threads'
// roles and count.
func (f *forward) play(out *Outcome, threads []thread, chain []transition) *Outcome {
	for _, t := range chain {
		mover := slices.IndexFunc(threads, func(th thread) bool { return th.state == t.l })
		if mover < 0 {
			panic("cover: no thread stands where a move of the witness starts")
		}
		for _, m := range t.path {
			f.record(out, m, mover)
			if m.spawn >= 0 {
				how := "started"
				if m.edge.Kind == ir.Fork {
					how = "forked"
				}
				threads = append(threads, thread{state: m.spawn, role: fmt.Sprintf("%s, %s by thread %d at line %d", f.locals[m.spawn].frames[0].proc.Name, how, mover, m.edge.Pos.Line)})
			}
		}
		threads[mover].state = t.l2
		if t.fails {
			out.Failure = t.failText
		}
	}
	for _, th := range threads {
		out.Roles = append(out.Roles, th.role)
	}
	out.Threads = len(threads)
	return out
}

// record appends step m, taken by thread, to out's schedule with the
// values after it (before it, for a failing step), and keeps out.Depth
// the deepest call stack.
func (f *forward) record(out *Outcome, m micro, thread int) {
	step := result.ReplayStep{Thread: thread, Edge: m.edge, Globals: values(f.shareds[m.g].globals)}
	if m.l != dead {
		top := f.locals[m.l].top()
		step.Locals = values(top.locals)
		for x, live := range f.liveAt(top) {
			if !live {
				step.Locals[x] = ir.Unknown // set to F by localOf, arbitrary in the program
			}
		}
		out.Depth = max(out.Depth, len(f.locals[m.l].frames))
	}
	out.Steps = append(out.Steps, step)
}

func (f *forward) startFor(g int32) *start {
	for i := range f.starts {
		if f.starts[i].g == g && !f.starts[i].dead {
			return &f.starts[i]
		}
	}
	panic("cover: no start for a covered element")
}

// startThreads sets prog's thread counts to the instances the witness
// needs and returns its threads in the interpreter's order: each fixed
// instance in the state matched to it (any it may start in when none
// is), and one thread of an open group per element matched to it.
func (f *forward) startThreads(prog *ir.Program, st *start, m []int32, assign []int) []thread {
	state := map[int]int32{}    // fixed instance -> its thread state
	copies := map[int][]int32{} // open instance -> its threads' states
	for i, in := range assign {
		if f.instances[in].open {
			copies[in] = append(copies[in], m[i])
		} else {
			state[in] = m[i]
		}
	}
	perProc := map[*ir.Proc]int{}
	for _, t := range f.prog.Threads {
		if !t.Unbounded {
			perProc[t.Proc] += t.Count
		}
	}
	prog.Threads = nil
	var threads []thread
	fixedK, seen := 0, map[*ir.Proc]int{}
	for i, in := range f.instances {
		spec := f.prog.Threads[in.spec]
		if in.open {
			if n := len(copies[i]); n > 0 {
				prog.Threads = append(prog.Threads, ir.ThreadSpec{Proc: spec.Proc, Count: n})
			}
			for k, l := range copies[i] {
				threads = append(threads, thread{state: l, role: fmt.Sprintf("%s, instance %d of any number", spec.Proc.Name, k+1)})
			}
			continue
		}
		l, ok := state[i]
		if !ok {
			l = st.fixed[fixedK][0]
		}
		fixedK++
		if n := len(prog.Threads); n == 0 || prog.Threads[n-1].Proc != spec.Proc || i == 0 || f.instances[i-1].spec != in.spec {
			prog.Threads = append(prog.Threads, ir.ThreadSpec{Proc: spec.Proc})
		}
		prog.Threads[len(prog.Threads)-1].Count++
		seen[spec.Proc]++
		role := spec.Proc.Name
		if perProc[spec.Proc] > 1 {
			role = fmt.Sprintf("%s#%d", role, seen[spec.Proc])
		}
		threads = append(threads, thread{state: l, role: role})
	}
	return threads
}

func values(bits []bool) []ir.Value {
	out := make([]ir.Value, len(bits))
	for i, b := range bits {
		if b {
			out[i] = ir.True
		}
	}
	return out
}
