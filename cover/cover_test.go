package cover

import (
	"context"
	"errors"
	"strings"
	"testing"

	"bmc/ir"
	"bmc/result"
)

func load(t *testing.T, src, threads string) *ir.Program {
	t.Helper()
	var opts ir.Options
	if threads != "" {
		tc, err := ir.ParseThreads(threads)
		if err != nil {
			t.Fatal(err)
		}
		opts.Threads = tc
	}
	p, _, err := ir.Load(context.Background(), "t.bpl", []byte(src), opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// counter is a thread that counts itself into two bits, saturating at
// three; the checker asserts that fewer than n threads have counted.
const counter = `
decl c0, c1;
void init() begin c0, c1 := F, F; end
thread void worker() begin
  atomic_begin;
  c0, c1 := !c0 | c1 & c0, c1 | c0;
  atomic_end;
end
thread void checker() begin
  assert(%s);
end
`

func TestCheck(t *testing.T) {
	cases := []struct {
		name, src, threads string
		want               result.Verdict
		threadCount        int // for Unsafe: threads in the witness
	}{
		{"two needed", strings.Replace(counter, "%s", "!c1", 1), "worker=*,checker=1", result.Unsafe, 3},
		{"three needed", strings.Replace(counter, "%s", "!(c0 & c1)", 1), "worker=*,checker=1", result.Unsafe, 4},
		{"never four", strings.Replace(counter, "%s", "T", 1), "worker=*,checker=1", result.Safe, 0},
		{"bounded workers", strings.Replace(counter, "%s", "!(c0 & c1)", 1), "worker=2,checker=1", result.Safe, 0},
		{"fork in a loop", `
decl n0, n1;
void main() begin
  n0, n1 := F, F;
  l: start_thread goto w;
  goto l;
  w: atomic_begin; n0, n1 := !n0, n1 | n0; atomic_end;
  assert(!n1);
  end_thread;
end`, "", result.Unsafe, 3},
		{"lock excludes", `
decl in;
lock m;
void init() begin in := F; end
thread void w() begin
  acquire(m); assert(!in); in := T; in := F; release(m);
end`, "w=*", result.Safe, 0},
		{"release not held", `
lock m;
thread void w() begin
  if (*) then acquire(m); fi
  release(m);
end`, "w=*", result.Unsafe, 1},
		{"error label in a callee", `
decl g;
void init() begin g := F; end
void f() begin if (g) then ERROR: skip; fi end
thread void w() begin g := T; end
thread void v() begin f(); end`, "w=*,v=1", result.Unsafe, 2},
		{"three started in one atomic section", strings.Replace(spawned, "%s", "atomic_begin; start_thread worker(); start_thread worker(); start_thread worker(); atomic_end;", 1), "", result.Unsafe, 4},
		{"an atomic loop that starts threads", `
decl x;
void init() begin x := F; end
void w() begin skip; end
void main() begin atomic_begin; while (*) do start_thread w(); od atomic_end; assert(!x); end`, "", result.Unknown, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := Check(context.Background(), load(t, c.src, c.threads), DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if out.Verdict != c.want {
				t.Fatalf("verdict %v, want %v (%+v)", out.Verdict, c.want, out)
			}
			if c.want == result.Unknown && !strings.Contains(out.Stopped, "atomic section") {
				t.Errorf("unknown without the reason: %q", out.Stopped)
			}
			if c.want != result.Unsafe {
				return
			}
			if out.Threads != c.threadCount || len(out.Roles) != out.Threads || len(out.Steps) == 0 || out.Failure == "" {
				t.Errorf("witness: %d threads (want %d), roles %q, %d steps, failure %q", out.Threads, c.threadCount, out.Roles, len(out.Steps), out.Failure)
			}
		})
	}
}

func TestUnsupported(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"broadcast", `
void main() begin
  decl l;
  start_thread goto w;
  l, l$ := T, F;
  w: assert(l);
end`, "broadcast"},
	}
	for _, c := range cases {
		_, err := Check(context.Background(), load(t, c.src, ""), DefaultOptions())
		var un *Unsupported
		if !errors.As(err, &un) || !strings.Contains(un.Reason, c.want) || un.Pos.Line == 0 {
			t.Errorf("%s: got %v, want an Unsupported error saying %q with a position", c.name, err, c.want)
		}
	}
}

// deepCounter fails in f's fourth activation, counted in c0 and c1
// across all threads: one thread alone needs 5 frames (w and four of
// f), four threads need 2 each.
const deepCounter = `
decl c0, c1;
void init() begin c0, c1 := F, F; end
void f() begin
  if (c0 & c1) then assert(F); fi
  if (!c0) then c0 := T; elsif (!c1) then c0, c1 := F, T; else c0 := T; fi
  if (*) then f(); fi
end
thread void w() begin f(); end
`

// TestRecursionWithinDepth checks recursive threads: thread states are
// cut at the call depth, a violation within it is found, and an answer
// without one says that calls went deeper.
func TestRecursionWithinDepth(t *testing.T) {
	cases := []struct {
		threads       string
		depth         int
		want          result.Verdict
		threadCount   int
		rounds        bool
		deeper        bool
		witnessFrames int
	}{
		{"w=1", 4, result.Unknown, 0, false, true, 0},
		{"w=1", 5, result.Unsafe, 1, false, false, 5},
		{"w=*", 2, result.Unsafe, 4, false, false, 2},
		{"w=1", 4, result.Unknown, 0, true, true, 0},
		{"w=1", 5, result.Unsafe, 1, true, false, 5},
		{"w=*", 2, result.Unsafe, 4, true, false, 2},
	}
	for _, c := range cases {
		opts := DefaultOptions()
		opts.Depth = c.depth
		p := load(t, deepCounter, c.threads)
		out, err := Check(context.Background(), p, opts)
		if c.rounds {
			out, err = CheckRounds(context.Background(), p, 1, opts)
		}
		if err != nil {
			t.Fatal(err)
		}
		if out.Verdict != c.want || out.Deeper != c.deeper || c.want == result.Unsafe && (out.Threads != c.threadCount || out.Depth != c.witnessFrames) {
			t.Errorf("%s, depth %d, rounds %v: %v (deeper %v, %d threads, %d frames; %s), want %v (deeper %v, %d threads, %d frames)",
				c.threads, c.depth, c.rounds, out.Verdict, out.Deeper, out.Threads, out.Depth, out.Stopped, c.want, c.deeper, c.threadCount, c.witnessFrames)
		}
	}
	_, _, err := Adequate(context.Background(), load(t, deepCounter, "w=*"), 1, DefaultOptions())
	var un *Unsupported
	if !errors.As(err, &un) || !strings.Contains(un.Reason, "recursive") || un.Pos.Line == 0 {
		t.Errorf("adequacy of recursive threads: %v, want an Unsupported error saying recursive, with a position", err)
	}
}

func TestStopped(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, err := Check(ctx, load(t, strings.Replace(counter, "%s", "T", 1), "worker=*,checker=1"), DefaultOptions())
	if err != nil || out.Verdict != result.Unknown || out.Stopped == "" {
		t.Errorf("a cancelled check: %+v, %v; want unknown, saying why", out, err)
	}
}

// twoRounds fails only when a runs again after b: in round 2.
const twoRounds = `
decl x, y;
void init() begin x, y := F, F; end
thread void a() begin x := T; assert(!y); end
thread void b() begin assume(x); y := T; end
`

// exclusive is mutual exclusion under a lock for any number of drivers:
// in one round the kernel, first, never finds a driver past its loop.
const exclusive = `
decl busy;
lock m;
void init() begin busy := F; end
thread void kernel() begin acquire(m); assert(!busy); release(m); end
thread void driver() begin
  while (*) do acquire(m); assert(!busy); busy := T; busy := F; release(m); od
end
`

func TestCheckRounds(t *testing.T) {
	cases := []struct {
		name, src, threads string
		k                  int
		want               result.Verdict
		threadCount        int
	}{
		{"three needed", strings.Replace(counter, "%s", "!(c0 & c1)", 1), "worker=*,checker=1", 1, result.Unsafe, 4},
		{"never four", strings.Replace(counter, "%s", "T", 1), "worker=*,checker=1", 2, result.Safe, 0},
		{"bounded workers", strings.Replace(counter, "%s", "!(c0 & c1)", 1), "worker=2,checker=1", 2, result.Safe, 0},
		{"one round is not enough", twoRounds, "a=1,b=*", 1, result.Safe, 0},
		{"two rounds are", twoRounds, "a=1,b=*", 2, result.Unsafe, 2},
		{"exclusive", exclusive, "kernel=1,driver=*", 3, result.Safe, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := CheckRounds(context.Background(), load(t, c.src, c.threads), c.k, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if out.Verdict != c.want {
				t.Fatalf("verdict %v, want %v", out.Verdict, c.want)
			}
			if c.want == result.Unsafe && (c.threadCount >= 0 && out.Threads != c.threadCount || len(out.Steps) == 0 || out.Rounds > c.k) {
				t.Errorf("witness: %d threads (want %d), %d steps, %d rounds", out.Threads, c.threadCount, len(out.Steps), out.Rounds)
			}
		})
	}
}

// spawned counts the workers main starts (up to 3, in c0 and c1) and
// fails when it sees three: main's check comes before the workers in
// round 1, so it needs round 2; %s is how main starts them.
const spawned = `
decl c0, c1;
void init() begin c0, c1 := F, F; end
void worker() begin
  if (!c0) then c0 := T; elsif (!c1) then c0, c1 := F, T; else c0 := T; fi
end
void main() begin
  %s
  assert(!(c0 & c1));
end
`

// TestRoundsStartedThreads checks threads started on the way: placed at
// the end of the order from the round they are started in, and a
// violation that needs more starts than the program makes is not
// reported (the interfaces do not count starts).
func TestRoundsStartedThreads(t *testing.T) {
	loop := strings.Replace(spawned, "%s", "while (*) do start_thread worker(); od", 1)
	twice := strings.Replace(spawned, "%s", "start_thread worker(); start_thread worker();", 1)
	cases := []struct {
		name, src   string
		k           int
		want        result.Verdict
		threadCount int
	}{
		{"checked before the workers run", loop, 1, result.Safe, 0},
		{"checked in round 2", loop, 2, result.Unsafe, 4},
		{"two workers only", twice, 2, result.Unknown, 0},
		{"started in an atomic loop", strings.Replace(spawned, "%s", "atomic_begin; while (*) do start_thread worker(); od atomic_end;", 1), 2, result.Unsafe, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := CheckRounds(context.Background(), load(t, c.src, ""), c.k, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if out.Verdict != c.want {
				t.Fatalf("verdict %v (%s), want %v", out.Verdict, out.Stopped, c.want)
			}
			if c.want == result.Unsafe && (c.threadCount >= 0 && out.Threads != c.threadCount || len(out.Steps) == 0 || out.Rounds > c.k) {
				t.Errorf("witness: %d threads (want %d), %d steps, %d rounds", out.Threads, c.threadCount, len(out.Steps), out.Rounds)
			}
			if c.want == result.Unknown && !strings.Contains(out.Stopped, "how often") {
				t.Errorf("unknown without the reason: %q", out.Stopped)
			}
		})
	}
	_, _, err := Adequate(context.Background(), load(t, loop, ""), 1, DefaultOptions())
	var un *Unsupported
	if !errors.As(err, &un) || !strings.Contains(un.Reason, "starts a thread") {
		t.Errorf("adequacy of a program that starts threads: %v, want an Unsupported error", err)
	}
}

// TestAdequacy checks that the game is lost where k rounds do not reach
// every configuration (a violation needs round 2; the kernel meets a
// driver after its loop only from round 2) and won where they do.
func TestAdequacy(t *testing.T) {
	cases := []struct {
		name, src, threads string
		k                  int
		want               result.Verdict
	}{
		{"a violation needs round 2", twoRounds, "a=1,b=*", 1, result.Unsafe},
		{"exclusive, one round", exclusive, "kernel=1,driver=*", 1, result.Unsafe},
		{"exclusive, two rounds", exclusive, "kernel=1,driver=*", 2, result.Safe},
	}
	for _, c := range cases {
		got, why, err := Adequate(context.Background(), load(t, c.src, c.threads), c.k, DefaultOptions())
		if err != nil || got != c.want || (got == result.Unsafe) != (why != "") {
			t.Errorf("%s at k=%d: %v (%q, %v), want %v", c.name, c.k, got, why, err, c.want)
		}
	}
}

// TestRoundsGuessLimit checks that a large round bound stops before the
// guesses of the inputs are made, with the reason.
func TestRoundsGuessLimit(t *testing.T) {
	out, err := CheckRounds(context.Background(), load(t, exclusive, "kernel=1,driver=*"), 32, Options{MaxPairs: 1000, MaxElements: 1000})
	if err != nil || out.Verdict != result.Unknown || !strings.Contains(out.Stopped, "guesses") {
		t.Errorf("32 rounds within 1000 elements: %+v, %v; want unknown because of the guesses", out, err)
	}
}
