package moped

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"bmc/explicit"
	"bmc/internal/peer"
	"bmc/internal/progen"
	"bmc/internal/soak"
	"bmc/ir"
	"bmc/result"
	"bmc/seq"
)

func load(t *testing.T, name, src string, opts ir.Options) *ir.Program {
	t.Helper()
	p, _, err := ir.Load(context.Background(), name, []byte(src), opts)
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, src)
	}
	return p
}

// verdict runs the explicit checker on p (one thread) with a call depth
// bound.
func verdict(t *testing.T, p *ir.Program, depth, states int) *result.Result {
	t.Helper()
	o := explicit.DefaultOptions()
	o.Depth, o.MaxStates = depth, states
	ck, err := explicit.New(p, o)
	if err != nil {
		t.Fatal(err)
	}
	return ck.Run(context.Background())
}

// printed formats p for Moped and reads the text back as bmc's own
// language: Label is a default error label, so the reloaded program's
// violations are the reachability of Label.
func printed(t *testing.T, p *ir.Program) (string, *ir.Program) {
	t.Helper()
	var buf bytes.Buffer
	if err := Format(context.Background(), &buf, p); err != nil {
		t.Fatalf("%s: %v", p.File, err)
	}
	text := buf.String()
	if err := CheckText([]byte(text), Label); err != nil {
		t.Fatalf("%s: %v\n%s", p.File, err, text)
	}
	return text, load(t, p.File+".moped", text, ir.Options{})
}

// TestLowerHandWritten checks programs with each construct the lowering
// rewrites: the lowered, printed and reloaded program has the verdict of
// the original under bmc's semantics, with one more frame (the call of
// violation; two when main is wrapped).
func TestLowerHandWritten(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"assert fails", `decl g; void main() begin g := *; assert(g); end`, "unsafe"},
		{"assert holds", `decl g; void main() begin g := T; assert(g); end`, "safe"},
		{"assert with *", `void main() begin assert(T & *); end`, "unsafe"},
		{"error label in a callee", `decl g; void f() begin if (g) then error: skip; fi end void main() begin g := *; f(); end`, "unsafe"},
		{"error label unreached", `decl g; void f() begin if (g) then ERROR: skip; fi end void main() begin g := F; f(); end`, "safe"},
		{"no violation at all", `decl g; void main() begin g := T; end`, "safe"},
		{"initial values", `decl g := T, h := F; void main() begin assert(g & !h); end`, "safe"},
		{"local initial value at every call", `bool f() begin decl l := T; l := !l; return l; end
			void main() begin decl a, b; a := f(); b := f(); assert(!a & !b); end`, "safe"},
		{"constrain on old values", `decl x, y; void main() begin x, y := *, * constrain x; assert(!x); end`, "unsafe"},
		{"constrain on old values blocks", `decl x, y; void main() begin x := F; y := T constrain x; assert(F); end`, "safe"},
		{"constrain on new values", `decl x, y; void main() begin x, y := *, * constrain ('x = !'y) & !'x; assert(!(x | !y)); end`, "safe"},
		{"constrain relates old and new", `decl x; void main() begin x := F; x := * constrain 'x != x; assert(!x); end`, "unsafe"},
		{"constrain reads a variable not assigned", `decl x, y; void main() begin y := T; x := * constrain 'x = 'y; assert(x); end`, "safe"},
		{"dead", `decl x; void main() begin x := T; dead x; assert(x); end`, "unsafe"},
		{"nested nondet", `decl x; void main() begin x := F & *; assert(!x); end`, "safe"},
		{"nested nondet can be true", `decl x; void main() begin x := T & *; assert(!x); end`, "unsafe"},
		{"nondet in a condition", `decl x; void main() begin x := F; if (x | !*) then assert(F); fi end`, "unsafe"},
		{"nondet in a condition, blocked", `decl x; void main() begin x := F; if (x & *) then assert(F); fi end`, "safe"},
		{"nested schoose", `decl x, y; void main() begin y := T; x := !schoose[y, F]; assert(!x); end`, "safe"},
		{"nested schoose can be either", `decl x, y; void main() begin y := F; x := !schoose[y, y]; assert(!x); end`, "unsafe"},
		{"schoose with nondet operands", `decl x; void main() begin x := schoose[F & *, T]; assert(!x); end`, "safe"},
		{"discarded result", `bool<2> f() begin return T, F; end
			void main() begin decl a; a, _ := f(); assert(a); end`, "safe"},
		{"return without values", `bool f() begin return; end void main() begin decl a; a := f(); assert(a); end`, "unsafe"},
		{"recursion", `bool f(a) begin decl r; if (a) then r := f(!a); return r; fi return a; end
			void main() begin decl r; r := f(T); assert(!r); end`, "safe"},
		{"main called again", `decl g := F, n; void main() begin if (!n) then n := T; g := T; main(); fi assert(!g); end`, "unsafe"},
		{"atomic marks", `decl g; void main() begin atomic_begin; g := T; atomic_end; assert(g); end`, "safe"},
		{"assume false", `void main() begin assume(F); assert(F); end`, "safe"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := load(t, c.name, c.src, ir.Options{})
			if got := verdict(t, p, 8, 100_000).Verdict.String(); got != c.want {
				t.Fatalf("the original is %s, the test says %s", got, c.want)
			}
			text, q := printed(t, p)
			if got := verdict(t, q, 10, 100_000).Verdict.String(); got != c.want {
				t.Errorf("printed for Moped: %s, want %s\n%s", got, c.want, text)
			}
		})
	}
}

// TestLowerRandom runs random concurrent programs (loops, calls,
// recursion, constrain, dead, schoose, enforce, atomic sections, locks)
// through both sequentializations, lowers and prints them for Moped and
// reads them back: the explicit checker must give the original's verdict
// and so must Moped, when it is installed (otherwise that part is
// skipped, with a message).
func TestLowerRandom(t *testing.T) {
	exe := peer.Optional(t, peer.Moped)
	programs := soak.Seeds(20, 120) // a sample; make soak runs more
	if testing.Short() {
		programs = 15
	}
	const depth = 3
	counts := map[string]int{}
	for seed := int64(1); seed <= int64(programs); seed++ {
		cfg := progen.DefaultConfig()
		cfg.Stmts = 4
		switch seed % 4 {
		case 1:
			cfg.Threads, cfg.Locks = 1, 0 // a sequential program, through one context
		case 2:
			cfg.ShortLoops, cfg.Recursive = true, true
		case 3:
			cfg.Threads, cfg.Stmts = 3, 3
		}
		src := progen.Generate(seed, cfg)
		p := load(t, fmt.Sprintf("seed%d.bpl", seed), src, ir.Options{})
		for _, bd := range []seq.Bound{{Rounds: 1}, {Switches: 1}, {Rounds: 2}} {
			o := explicit.DefaultOptions()
			o.Depth, o.MaxStates = depth, 200_000
			ck, _ := explicit.New(p, o.Within(bd.Rounds, bd.Switches))
			want := ck.Run(context.Background())
			if want.Verdict == result.Unknown {
				counts["original unknown"]++
				continue
			}
			for _, method := range []string{"lazy", "eager"} {
				translate := seq.Lazy
				if method == "eager" {
					translate = seq.Eager
				}
				sp, err := translate(context.Background(), p, bd)
				if err != nil {
					t.Fatalf("seed %d %s %v: %v", seed, method, bd, err)
				}
				text, q := printed(t, sp.Seq)
				if exe != "" {
					reachable, err := runText(t, exe, text)
					if err != nil {
						t.Fatalf("seed %d, %s, %v: %v\n%s", seed, method, bd, err, excerpt(text))
					}
					if reachable != (want.Verdict == result.Unsafe) {
						t.Fatalf("seed %d, %s, %v: original %s, Moped says reachable=%v\n%s\n%s", seed, method, bd, want.Verdict, reachable, src, excerpt(text))
					}
					counts["moped agrees"]++
					peer.Case(t, peer.Moped, fmt.Sprintf("seed %d, %s, %v", seed, method, bd))
				}
				if method == "eager" && guessed(sp.Seq) > 10 {
					counts["eager too many guesses"]++
					continue
				}
				// main, the thread's frames and the call of violation
				got := verdict(t, q, depth+2, 100_000)
				if got.Verdict == result.Unknown {
					counts[method+" unknown"]++
					continue
				}
				if got.Verdict != want.Verdict {
					t.Fatalf("seed %d, %s, %v: original %s, printed for Moped %s %v\n%s\n%s", seed, method, bd,
						want.Verdict, got.Verdict, got.Limits, src, excerpt(text))
				}
				counts[method+" "+got.Verdict.String()]++
			}
		}
	}
	t.Logf("outcomes: %v", counts)
	for _, m := range []string{"eager", "lazy"} {
		if counts[m+" unsafe"] == 0 || counts[m+" safe"] == 0 {
			t.Errorf("%s: want both verdicts, got %v", m, counts)
		}
	}
}

func guessed(p *ir.Program) int {
	n := 0
	for _, g := range p.Globals {
		if g.Init == ir.Unknown {
			n++
		}
	}
	return n
}

func excerpt(text string) string {
	if lines := strings.Split(text, "\n"); len(lines) > 80 {
		return strings.Join(lines[:80], "\n") + "\n..."
	}
	return text
}

// TestLowerRefuses checks the programs that have no sequential meaning
// for Moped.
func TestLowerRefuses(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"threads", `thread void a() begin skip; end thread void b() begin skip; end`, "exactly one thread"},
		{"init", `void init() begin skip; end void main() begin skip; end`, "init"},
		{"locks", `lock m; void main() begin acquire(m); end`, "locks"},
		{"enforce", `decl g; void main() begin enforce g; skip; end`, "enforce"},
		{"spawn", `void f() begin skip; end void main() begin start_thread f(); end`, "threads"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := load(t, c.name, c.src, ir.Options{})
			_, err := Lower(context.Background(), p)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
}
