package ir

import (
	"context"
	"testing"
)

func TestThreadsUnbounded(t *testing.T) {
	cases := []struct {
		name, src, threads string
		want               bool
	}{
		{"fixed threads", "thread void a() begin skip; end thread void b() begin skip; end", "", false},
		{"star", "thread void a() begin skip; end", "a=*", true},
		{"one spawn", "void w() begin skip; end void main() begin start_thread w(); end", "", false},
		{"spawn in a loop", "void w() begin skip; end void main() begin while (*) do start_thread w(); od end", "", true},
		{"fork in a loop", "void main() begin l: start_thread goto w; goto l; w: end_thread; end", "", true},
		{"fork once", "void main() begin start_thread goto w; skip; w: end_thread; end", "", false},
		{"spawn in a function called in a loop", "void w() begin skip; end void s() begin start_thread w(); end void main() begin while (*) do s(); od end", "", true},
		{"threads that start each other", "void w() begin start_thread v(); end void v() begin start_thread w(); end void main() begin start_thread w(); end", "", true},
	}
	for _, c := range cases {
		var opts Options
		if c.threads != "" {
			tc, err := ParseThreads(c.threads)
			if err != nil {
				t.Fatal(err)
			}
			opts.Threads = tc
		}
		p, _, err := Load(context.Background(), "t.bpl", []byte(c.src), opts)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := p.ThreadsUnbounded(); got != c.want {
			t.Errorf("%s: ThreadsUnbounded() = %v, want %v", c.name, got, c.want)
		}
	}
}
