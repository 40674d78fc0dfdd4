package budget

import (
	"context"
	"testing"
	"time"
)

// TestBorrow: an engine's own race borrows a free core only while no
// candidate waits for one.
func TestBorrow(t *testing.T) {
	c := NewCores(2)
	ctx := WithCores(context.Background(), c)
	first, ok := c.Take(ctx)
	if !ok {
		t.Fatal("no core for the first candidate")
	}
	release, ok := Borrow(ctx)
	if !ok {
		t.Fatal("a free core was not lent")
	}
	if _, ok := Borrow(ctx); ok {
		t.Fatal("a core was lent beyond the cores")
	}
	waiting := make(chan bool)
	go func() {
		_, ok := c.Take(ctx)
		waiting <- ok
	}()
	for {
		c.mu.Lock()
		w := c.waiting
		c.mu.Unlock()
		if w > 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	release()
	if !<-waiting {
		t.Fatal("the waiting candidate did not get the core given back")
	}
	c.Give(first)
	c.mu.Lock()
	c.waiting++ // a candidate about to wait
	c.mu.Unlock()
	if _, ok := Borrow(ctx); ok {
		t.Error("a core was lent while a candidate waits")
	}
}
