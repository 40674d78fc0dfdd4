package explicit

import (
	"encoding/binary"

	"bmc/ir"
)

// A state is one configuration of the concurrent program. Variables that
// were never given a definite value hold ir.Unknown; a step that reads
// such a variable first splits the state into its two refinements, so
// uninitialised data costs nothing until it is looked at.
type state struct {
	globals []ir.Value
	locks   []int16 // holder thread index, -1 when free
	threads []thread
	init    bool // init runs alone as threads[0]
	cur     int  // running thread in bounded modes; -1 before the first choice
	used    int  // context switches used (--switches) or current round (-k)
}

type thread struct {
	entry *ir.Proc // entry function, names the thread
	// frames is the stack, empty once the thread has terminated. Only the
	// top frame belongs to this state alone: the frames below it are
	// shared with the states cloned from it and never changed in place
	// (set copies one first, a return copies the caller's), so that a
	// clone costs one frame, not the stack (a trace 1,000 calls deep
	// holds thousands of states).
	frames []*frame
	atomic bool // inside an atomic section: no context switch
}

type frame struct {
	proc   *ir.Proc
	pc     int
	call   int  // ID of the call edge that pushed this frame; -1 for a thread's entry frame
	atomic bool // an atomic call: the thread's atomic mode to restore on return
	locals []ir.Value
}

func (t *thread) alive() bool { return len(t.frames) > 0 }

func (t *thread) top() *frame { return t.frames[len(t.frames)-1] }

// own gives the thread a copy of frame i of its own (a frame below the
// top is shared with other states).
func (t *thread) own(i int) *frame {
	f := *t.frames[i]
	f.locals = append([]ir.Value(nil), f.locals...)
	t.frames[i] = &f
	return &f
}

func (s *state) clone() *state {
	n := &state{
		globals: append([]ir.Value(nil), s.globals...),
		locks:   append([]int16(nil), s.locks...),
		threads: make([]thread, len(s.threads)),
		init:    s.init, cur: s.cur, used: s.used,
	}
	for i := range s.threads {
		n.threads[i] = s.threads[i].clone()
	}
	return n
}

func (t thread) clone() thread {
	n := thread{entry: t.entry, atomic: t.atomic, frames: append([]*frame(nil), t.frames...)}
	if len(n.frames) > 0 {
		n.own(len(n.frames) - 1)
	}
	return n
}

// slot addresses one variable cell: a global (thread -1) or a local of
// one frame of one thread.
type slot struct {
	thread, frame, index int
}

func (s *state) get(sl slot) ir.Value {
	if sl.thread < 0 {
		return s.globals[sl.index]
	}
	return s.threads[sl.thread].frames[sl.frame].locals[sl.index]
}

func (s *state) set(sl slot, v ir.Value) {
	if sl.thread < 0 {
		s.globals[sl.index] = v
		return
	}
	th := &s.threads[sl.thread]
	f := th.frames[sl.frame]
	if sl.frame < len(th.frames)-1 {
		f = th.own(sl.frame) // shared below the top
	}
	f.locals[sl.index] = v
}

// varSlot is the cell of v as seen from the top frame of thread t.
func (s *state) varSlot(v *ir.Var, t int) slot {
	if v.Global {
		return slot{-1, 0, v.Index}
	}
	return slot{t, len(s.threads[t].frames) - 1, v.Index}
}

// key serializes s; equal states have equal keys.
func (s *state) key(buf []byte) []byte {
	buf = binary.AppendUvarint(buf, boolBit(s.init))
	buf = binary.AppendUvarint(buf, uint64(s.cur+1))
	buf = binary.AppendUvarint(buf, uint64(s.used))
	buf = appendValues(buf, s.globals)
	for _, h := range s.locks {
		buf = binary.AppendUvarint(buf, uint64(h+1))
	}
	buf = binary.AppendUvarint(buf, uint64(len(s.threads)))
	for i := range s.threads {
		buf = s.threads[i].key(buf)
	}
	return buf
}

// key serializes t as part of its state's key.
func (t *thread) key(buf []byte) []byte {
	buf = binary.AppendUvarint(buf, uint64(t.entry.Index))
	buf = binary.AppendUvarint(buf, boolBit(t.atomic))
	buf = binary.AppendUvarint(buf, uint64(len(t.frames)))
	for _, f := range t.frames {
		buf = binary.AppendUvarint(buf, uint64(f.proc.Index))
		buf = binary.AppendUvarint(buf, uint64(f.pc))
		buf = binary.AppendUvarint(buf, uint64(f.call+1))
		buf = binary.AppendUvarint(buf, boolBit(f.atomic))
		buf = appendValues(buf, f.locals)
	}
	return buf
}

func boolBit(a bool) uint64 {
	if a {
		return 1
	}
	return 0
}

// appendValues packs four values per byte.
func appendValues(buf []byte, vals []ir.Value) []byte {
	for i := 0; i < len(vals); i += 4 {
		var b byte
		for j := 0; j < 4 && i+j < len(vals); j++ {
			b |= byte(vals[i+j]) << (2 * j)
		}
		buf = append(buf, b)
	}
	return buf
}

func readValues(key []byte, n int) ([]ir.Value, []byte) {
	vals := make([]ir.Value, n)
	for i := 0; i < n; i++ {
		vals[i] = ir.Value(key[i/4] >> (2 * (i % 4)) & 3)
	}
	return vals, key[(n+3)/4:]
}

func readUvarint(key []byte) (int, []byte) {
	x, n := binary.Uvarint(key)
	return int(x), key[n:]
}

// decode rebuilds the state serialized by key.
func decode(p *ir.Program, key []byte) *state {
	s := &state{}
	var x int
	x, key = readUvarint(key)
	s.init = x&1 != 0
	x, key = readUvarint(key)
	s.cur = x - 1
	s.used, key = readUvarint(key)
	s.globals, key = readValues(key, len(p.Globals))
	s.locks = make([]int16, len(p.Locks))
	for i := range s.locks {
		x, key = readUvarint(key)
		s.locks[i] = int16(x - 1)
	}
	var nt int
	nt, key = readUvarint(key)
	s.threads = make([]thread, nt)
	for i := range s.threads {
		t := &s.threads[i]
		x, key = readUvarint(key)
		t.entry = p.Procs[x]
		x, key = readUvarint(key)
		t.atomic = x&1 != 0
		var nf int
		nf, key = readUvarint(key)
		t.frames = make([]*frame, nf)
		for j := range t.frames {
			f := &frame{}
			t.frames[j] = f
			x, key = readUvarint(key)
			f.proc = p.Procs[x]
			f.pc, key = readUvarint(key)
			x, key = readUvarint(key)
			f.call = x - 1
			x, key = readUvarint(key)
			f.atomic = x&1 != 0
			f.locals, key = readValues(key, len(f.proc.Locals))
		}
	}
	return s
}
