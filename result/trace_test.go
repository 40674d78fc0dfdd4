package result

import "testing"

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
