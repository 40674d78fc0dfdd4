package result

import (
	"testing"

	"bmc/ir"
)

// TestLockChange checks that ParseLockChange reads what LockChange
// writes, and nothing else.
func TestLockChange(t *testing.T) {
	for _, c := range []struct {
		lock, holder string
		text         string
	}{
		{"m", "adder#1", "lock m held by adder#1"},
		{"f0", "", "lock f0 free"},
		{"free", "t", "lock free held by t"},
		{"held", "", "lock held free"},
	} {
		if got := LockChange(c.lock, c.holder); got != c.text {
			t.Errorf("LockChange(%q, %q) = %q, want %q", c.lock, c.holder, got, c.text)
		}
		lock, holder, ok := ParseLockChange(c.text)
		if !ok || lock != c.lock || holder != c.holder {
			t.Errorf("ParseLockChange(%q) = %q, %q, %v; want %q, %q", c.text, lock, holder, ok, c.lock, c.holder)
		}
	}
	for _, text := range []string{"x=T", "lockm=T", "lock m", "lock  free", "lock m held by ", "lock m n held by t", "new thread f#2", "t#2.x=F", ""} {
		if lock, holder, ok := ParseLockChange(text); ok {
			t.Errorf("ParseLockChange(%q) = %q, %q, true; want not a lock change", text, lock, holder)
		}
	}
}

// TestStackDepth: each thread's stack counted from its entry frame; init,
// which runs as thread 0 and returns before thread 0 starts, on its own;
// a spawn pushes no frame.
func TestStackDepth(t *testing.T) {
	call, ret, skip := &ir.Edge{Kind: ir.Call}, &ir.Edge{Kind: ir.Return}, &ir.Edge{Kind: ir.Skip}
	spawn := &ir.Edge{Kind: ir.Call, Spawn: true}
	step := func(thread int, e *ir.Edge) ReplayStep { return ReplayStep{Thread: thread, Edge: e} }
	for _, c := range []struct {
		name  string
		steps []ReplayStep
		want  int
	}{
		{"no call", []ReplayStep{step(0, skip)}, 1},
		{"init returns, then thread 0 calls twice", []ReplayStep{step(0, skip), step(0, ret), step(0, call), step(0, call), step(1, skip)}, 3},
		{"calls that return", []ReplayStep{step(0, call), step(0, ret), step(0, call), step(0, ret)}, 2},
		{"two threads", []ReplayStep{step(0, call), step(1, call), step(1, call), step(0, ret)}, 3},
		{"a spawn", []ReplayStep{step(0, spawn), step(0, spawn)}, 1},
	} {
		if got := StackDepth(c.steps); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}
