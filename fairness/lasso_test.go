package fairness

import (
	"context"
	"strings"
	"testing"

	"bmc/explicit"
	"bmc/ir"
	"bmc/result"
)

func load(t *testing.T, src string) *ir.Program {
	t.Helper()
	p, _, err := ir.Load(context.Background(), "prog.bpl", []byte(src), ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// withCalls are programs whose threads call procedures (inlined by the
// translation), some from inside their loops, with results, nesting and
// lock operations in the callees.
var withCalls = []struct{ name, src string }{
	{"retry in a callee", `lock m; decl g;
		bool try(x) begin decl r; r := tryacquire(m); if (r) then g := x; release(m); fi return r; end
		thread void a() begin decl ok; ok := F; while (!ok) do ok := try(T); od end
		thread void b() begin decl ok; ok := F; while (!ok) do ok := try(F); od end`},
	{"spin through nested calls", `decl g;
		bool get() begin return g; end
		bool notget() begin decl v; v := get(); return !v; end
		thread void w() begin decl v; v := T; while (v) do v := notget(); od end
		thread void s() begin g := T; end`},
	{"lock held across a call", `lock m; decl g;
		void crit() begin g := !g; end
		thread void a() begin while (T) do acquire(m); crit(); release(m); od end
		thread void b() begin acquire(m); g := F; release(m); end`},
	{"callee leaves no trace", `decl g;
		void flip() begin decl t; t := !g; g := t; end
		thread void a() begin while (T) do flip(); flip(); od end`},
}

// TestLassoAgreesWithExplicit: the translation's assertion fails (as the
// explicit checker finds on the sequential program) exactly when the
// explicit fair-lasso search finds a livelock in the original.
func TestLassoAgreesWithExplicit(t *testing.T) {
	bounds := []result.LassoBound{{Stem: 1, Loop: 1}, {Stem: 0, Loop: 1}, {Stem: 1, Loop: 2}}
	counts := map[result.Verdict]int{}
	for _, tc := range withCalls {
		p := load(t, tc.src)
		for _, b := range bounds {
			for _, f := range []result.Fairness{result.StrongFairness, result.WeakFairness, result.NoFairness} {
				b.Fairness = f
				want := explicit.LassoSearch(context.Background(), p, b, explicit.DefaultOptions())
				fp, err := Lasso(context.Background(), p, b, 16)
				if err != nil {
					t.Fatalf("%s, %s: %v", tc.name, b, err)
				}
				c, err := explicit.New(fp.Seq, explicit.DefaultOptions())
				if err != nil {
					t.Fatal(err)
				}
				got := c.Run(context.Background())
				if got.Verdict == result.Unknown || want.Verdict == result.Unknown {
					t.Fatalf("%s, %s: unknown (%v; %v)", tc.name, b, got.Limits, want.Limits)
				}
				if got.Verdict != want.Verdict {
					t.Errorf("%s, %s: the translation says %s, the fair-lasso search %s", tc.name, b, got.Verdict, want.Verdict)
				}
				counts[got.Verdict]++
			}
		}
	}
	if counts[result.Safe] == 0 || counts[result.Unsafe] == 0 {
		t.Errorf("verdicts %v: want both", counts)
	}
}

// TestInlineKeepsSafety: inlining the calls keeps every safety verdict
// (the explicit checker on the program and on its inlined copy).
func TestInlineKeepsSafety(t *testing.T) {
	for _, tc := range withCalls {
		src := strings.Replace(tc.src, "decl g;", "decl g;\n", 1)
		p := load(t, src)
		in, err := inline(p, 16)
		if err != nil {
			t.Fatal(err)
		}
		for k := 1; k <= 3; k++ {
			o := explicit.DefaultOptions().Within(k, 0)
			var verdicts [2]result.Verdict
			for i, q := range []*ir.Program{p, in.q} {
				c, err := explicit.New(q, o)
				if err != nil {
					t.Fatal(err)
				}
				verdicts[i] = c.Run(context.Background()).Verdict
			}
			if verdicts[0] != verdicts[1] {
				t.Errorf("%s, -k %d: %s, inlined %s", tc.name, k, verdicts[0], verdicts[1])
			}
		}
		for _, th := range in.q.Threads {
			for _, n := range th.Proc.Nodes {
				for _, e := range n.Out {
					if e.Kind == ir.Call {
						t.Errorf("%s: thread %s still calls %s", tc.name, th.Proc.Name, e.Callee.Name)
					}
				}
			}
		}
	}
}

// TestLassoRefuses: what the translation cannot translate exactly is
// refused, saying why.
func TestLassoRefuses(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"enforce", `decl g; void e() begin enforce g; skip; end thread void a() begin e(); end`, "enforce clause"},
		{"spawn", `decl g; void w() begin g := T; end void main() begin start_thread w(); end`, "starts threads"},
	} {
		p := load(t, tc.src)
		_, err := Lasso(context.Background(), p, result.LassoBound{Stem: 1, Loop: 1}, 16)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
		_, err = Keyframes(context.Background(), p, result.LassoBound{Stem: 1, Loop: 1})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s, keyframes: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

// TestLassoRecursion: recursion is inlined up to the call depth, and the
// calls that would go deeper are reported as cut; a livelock within the
// depth is found as the explicit search finds it.
func TestLassoRecursion(t *testing.T) {
	p := load(t, `lock m; decl g;
		bool attempt(n) begin decl r; if (n) then r := attempt(F); return r; fi r := tryacquire(m); if (r) then release(m); fi return r; end
		thread void a() begin decl ok; ok := F; while (!ok) do ok := attempt(T); od end
		thread void b() begin acquire(m); while (T) do skip; od end`)
	b := result.LassoBound{Stem: 1, Loop: 1}
	for _, depth := range []int{1, 2, 3} {
		fp, err := Lasso(context.Background(), p, b, depth)
		if err != nil {
			t.Fatal(err)
		}
		c, err := explicit.New(fp.Seq, explicit.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		got := c.Run(context.Background()).Verdict
		o := explicit.DefaultOptions()
		o.Depth = depth
		want := explicit.LassoSearch(context.Background(), p, b, o).Verdict
		// The deepest copy of attempt still has its call: cut, though
		// only attempt(T) ever takes it.
		if len(fp.DepthCut) == 0 {
			t.Errorf("depth %d: no call cut", depth)
		}
		if want == result.Unsafe && got != result.Unsafe || want == result.Safe && got != result.Safe {
			t.Errorf("depth %d: the translation says %s, the fair-lasso search %s", depth, got, want)
		}
		t.Logf("depth %d: %s / %s", depth, got, want)
	}
}

// TestKeyframesAgreeWithExplicit: the translation with keyframes, run by
// the explicit checker on the sequential program (recursion within 12
// frames), fails where the fair-lasso search finds a livelock within the
// bound and holds where it finds none even with the longer stem (the
// driver's tests replay the failing runs' lassos). The programs have calls, lock operations in
// callees and retries by recursion (keyframe lassos).
func TestKeyframesAgreeWithExplicit(t *testing.T) {
	programs := append(withCalls[:len(withCalls):len(withCalls)],
		struct{ name, src string }{"recursive retry", `decl g;
		void retry() begin if (g) then g := F; retry(); fi end
		thread void a() begin retry(); end
		thread void b() begin while (!g) do g := T; od end`},
		struct{ name, src string }{"recursive tryacquire", `lock m; decl g;
		void attempt() begin decl r; r := tryacquire(m); if (!r) then g := !g; attempt(); else release(m); fi end
		thread void a() begin attempt(); end
		thread void b() begin acquire(m); while (T) do skip; od end`},
		struct{ name, src string }{"returns through equal frames", `decl c0, c1;
		void init() begin c0, c1 := F, F; end
		void dive() begin if (!(c0 & c1)) then c0, c1 := !c0, c1 ^ c0; dive(); fi end
		thread void w() begin dive(); end`},
		struct{ name, src string }{"dive that fairness stops", `decl stop;
		void init() begin stop := F; end
		void dive() begin if (!stop) then if (*) then dive(); fi fi end
		thread void w() begin dive(); end
		thread void s() begin stop := T; end`})
	bounds := []result.LassoBound{{Stem: 1, Loop: 1}, {Stem: 0, Loop: 1}, {Stem: 1, Loop: 2}}
	eo := explicit.DefaultOptions()
	eo.Depth = 12
	counts := map[string]int{}
	for _, tc := range programs {
		p := load(t, tc.src)
		for _, b := range bounds {
			for _, f := range []result.Fairness{result.StrongFairness, result.WeakFairness, result.NoFairness} {
				b.Fairness = f
				longer := b
				longer.Stem += b.Loop
				within := explicit.LassoSearch(context.Background(), p, b, eo).Verdict
				beyond := explicit.LassoSearch(context.Background(), p, longer, eo).Verdict
				fp, err := Keyframes(context.Background(), p, b)
				if err != nil {
					t.Fatalf("%s, %s: %v", tc.name, b, err)
				}
				c, err := explicit.New(fp.Seq, eo)
				if err != nil {
					t.Fatal(err)
				}
				got := c.Run(context.Background())
				switch {
				case within == result.Unsafe && got.Verdict != result.Unsafe:
					t.Errorf("%s, %s: the search finds a livelock, the translation says %s %v", tc.name, b, got.Verdict, got.Limits)
				case beyond == result.Safe && got.Verdict != result.Safe:
					t.Errorf("%s, %s: the search finds none within %s, the translation says %s", tc.name, b, longer, got.Verdict)
				}
				counts[got.Verdict.String()]++
			}
		}
	}
	t.Logf("%v", counts)
	if counts["safe"] == 0 || counts["unsafe"] == 0 {
		t.Errorf("verdicts %v: want livelocks and their absence", counts)
	}
}
