package budget

import (
	"context"
	"sync"

	"bmc/internal/cpus"
)

// Cores are a run's cores: every busy search or solver holds one, so
// that no more of them run at once than the machine has cores. The
// plan's candidates take theirs in the plan's order (Take); an engine's
// own race (a proof engine beside its unwinding, gini on a simplified
// formula beside the plain one) borrows one only while no candidate
// waits (Borrow), and gives it back when it ends. A core is a processor
// the run may use, by its number, for a candidate that runs as a
// process pinned to it.
type Cores struct {
	mu      sync.Mutex
	free    []int         // the numbers of the free cores' processors
	waiting int           // candidates waiting for a core
	freed   chan struct{} // closed (and replaced) when a core frees
}

// NewCores is n cores on the processors the process may run on, taken
// in turn (more cores than processors share them).
func NewCores(n int) *Cores {
	allowed := cpus.Allowed()
	c := &Cores{freed: make(chan struct{})}
	for i := range n {
		c.free = append(c.free, allowed[i%len(allowed)])
	}
	return c
}

type coresKey struct{}

// WithCores is ctx carrying c: the engines run under it borrow from c.
func WithCores(ctx context.Context, c *Cores) context.Context {
	return context.WithValue(ctx, coresKey{}, c)
}

// coresOf is the cores of the run ctx belongs to; nil outside a run
// (an engine called on its own, in a test), where every borrow succeeds.
func coresOf(ctx context.Context) *Cores {
	c, _ := ctx.Value(coresKey{}).(*Cores)
	return c
}

// Take waits for a core for a candidate and returns its processor;
// false when ctx ends first.
func (c *Cores) Take(ctx context.Context) (int, bool) {
	c.mu.Lock()
	c.waiting++
	for len(c.free) == 0 {
		freed := c.freed
		c.mu.Unlock()
		select {
		case <-freed:
		case <-ctx.Done():
			c.mu.Lock()
			c.waiting--
			c.mu.Unlock()
			return 0, false
		}
		c.mu.Lock()
	}
	c.waiting--
	cpu := c.free[len(c.free)-1]
	c.free = c.free[:len(c.free)-1]
	c.mu.Unlock()
	return cpu, true
}

// Give returns the core on processor cpu, or adds it (a core lent to a
// candidate's process).
func (c *Cores) Give(cpu int) {
	c.mu.Lock()
	c.free = append(c.free, cpu)
	close(c.freed)
	c.freed = make(chan struct{})
	c.mu.Unlock()
}

// Borrow takes a core for an engine's own race if one is free and no
// candidate waits for it; release gives it back.
func Borrow(ctx context.Context) (release func(), ok bool) {
	c := coresOf(ctx)
	if c == nil {
		return func() {}, true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.free) == 0 || c.waiting > 0 {
		return nil, false
	}
	cpu := c.free[len(c.free)-1]
	c.free = c.free[:len(c.free)-1]
	return sync.OnceFunc(func() { c.Give(cpu) }), true
}

// Borrowed is a channel that yields a borrowed core's release as soon as
// Borrow succeeds; it gives up (and closes the channel) when ctx or stop
// ends first. Stop cancels the wait; a core obtained after it is given
// back at once.
func Borrowed(ctx context.Context) (cores <-chan func(), stop func()) {
	out := make(chan func(), 1)
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		defer close(out)
		for {
			if release, ok := Borrow(ctx); ok {
				if ctx.Err() != nil {
					release()
					return
				}
				out <- release
				return
			}
			c := coresOf(ctx)
			c.mu.Lock()
			freed := c.freed
			c.mu.Unlock()
			select {
			case <-freed:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, cancel
}
