package explicit

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"bmc/ir"
	"bmc/result"
)

// When a loop comes back (docs/SEMANTICS.md, "Livelocks"). A loop ends
// in the configuration it began with, except that a thread's stack may
// have grown: MUTANT's keyframe lassos (mutant-fair-nontermination,
// section 3.3), a period after which the thread's stack is deeper, the
// frames below its keyframe never returned from. Let a thread's dip be
// how many frames below its top at the loop's start it pops during the
// loop (0: it never returns from the frame on top); the frame that far
// down is its keyframe. Frames below the keyframe are never on top in
// the loop, so no step reads or writes them. The loop comes back when
// the thread's top dip+1 frames at the end are those at the start (the
// keyframe's call site aside: it never returns, so where it returns to
// does not matter) and the stack is no lower: repeated, the loop then
// does the same steps above the same frames, each time leaving behind
// the frames it inserted below the keyframe. With a stack of the same
// height the configuration is the one the loop began with. Only
// recursion makes a stack deeper with the same frames on top, so for a
// program without it the dips are not tracked.

// loopDips records each thread's dip in a loop, as a string to go into
// the search's keys (4 bytes a thread); empty for a program without
// recursion, whose loops come back to equal configurations only.
type loopDips struct {
	heights []int // each thread's stack height at the start of the loop
}

// newLoopDips tracks dips from start, when p recurses.
func newLoopDips(p *ir.Program, start *state) loopDips {
	if !p.Recursive() {
		return loopDips{}
	}
	var d loopDips
	for i := range start.threads {
		d.heights = append(d.heights, len(start.threads[i].frames))
	}
	return d
}

func (d loopDips) size() int { return 4 * len(d.heights) }

func (d loopDips) start() string { return string(make([]byte, d.size())) }

// after is the record after a step of thread t that ends in s.
func (d loopDips) after(rec string, s *state, t int) string {
	if len(d.heights) == 0 {
		return rec
	}
	dip := d.heights[t] - len(s.threads[t].frames)
	if dip <= d.dip(rec, t) {
		return rec
	}
	b := []byte(rec)
	binary.LittleEndian.PutUint32(b[4*t:], uint32(dip))
	return string(b)
}

// dip is thread t's dip in rec; -1 when dips are not tracked (the whole
// stack is compared).
func (d loopDips) dip(rec string, t int) int {
	if len(d.heights) == 0 {
		return -1
	}
	return int(binary.LittleEndian.Uint32([]byte(rec[4*t:])))
}

// comesBack reports whether the loop that began in from, with the dips
// of rec, ends in n.
func (d loopDips) comesBack(from, n *state, rec string) bool {
	if len(d.heights) == 0 {
		return configKey(from) == configKey(n)
	}
	if !slices.Equal(from.globals, n.globals) || !slices.Equal(from.locks, n.locks) || len(from.threads) != len(n.threads) {
		return false
	}
	for t := range from.threads {
		if !d.threadBack(from, n, rec, t) {
			return false
		}
	}
	return true
}

// threadBack reports whether thread t is back in n as the loop needs it:
// the same above its keyframe, with a stack no lower.
func (d loopDips) threadBack(from, n *state, rec string, t int) bool {
	a, b := &from.threads[t], &n.threads[t]
	dip := d.dip(rec, t)
	ha, hb := len(a.frames), len(b.frames)
	switch {
	case a.entry != b.entry || a.atomic != b.atomic || hb < ha:
		return false
	case dip < 0 || ha == hb:
		// (With equal heights the frames below the keyframe are the
		// same ones, untouched.)
		return sameThread(a, b)
	}
	for j := 0; j <= dip && j < ha; j++ {
		fa, fb := a.frames[ha-1-j], b.frames[hb-1-j]
		if fa.proc != fb.proc || fa.pc != fb.pc || fa.atomic != fb.atomic || !slices.Equal(fa.locals, fb.locals) {
			return false
		}
		if j < dip && fa.call != fb.call {
			return false
		}
	}
	return true
}

// leftBehind words, for each thread whose stack the loop (states, the
// first its start and the last its end) makes deeper, the frames it
// leaves behind each time round: inserted between the frames below its
// keyframe and the keyframe's copy on top.
func (c *Checker) leftBehind(states []*state, names []string) []string {
	var out []string
	from, to := states[0], states[len(states)-1]
	for t := range from.threads {
		grow := len(to.threads[t].frames) - len(from.threads[t].frames)
		if grow <= 0 {
			continue
		}
		keyframe := len(from.threads[t].frames) - 1 // the lowest frame on top in the loop
		for _, s := range states {
			keyframe = min(keyframe, len(s.threads[t].frames)-1)
		}
		var frames []string
		th := &to.threads[t]
		for k := keyframe; k < keyframe+grow; k++ {
			// A frame below the top waits for the call that pushed the
			// frame above it.
			at := c.prog.Edges[th.frames[k+1].call].Pos
			frames = append(frames, fmt.Sprintf("%s (in its call at %s)", th.frames[k].proc.Name, at))
		}
		out = append(out, fmt.Sprintf("%s's stack is %s deeper than at the loop's start: each time round it leaves %s behind, never returned from",
			names[t], result.Plural(grow, "frame"), strings.Join(frames, ", ")))
	}
	return out
}
