package driver

import (
	"context"
	"errors"
	"strings"
	"testing"

	"bmc/ir"
	"bmc/method"
	"bmc/result"
)

// TestLivelockDirect: Livelock with --seq direct answers on the
// interleaving product, racing BMC and the proof engines or, with a step
// bound the user stated, by BMC alone; a livelock comes with its replayed
// trace; what the product cannot take is a usage error. A program the
// lasso translation refuses goes to the product unless the translation
// was asked for.
func TestLivelockDirect(t *testing.T) {
	const (
		retry = `decl g;
thread void a() begin while (g) do g := F; od end
thread void b() begin while (!g) do g := T; od end`
		ends = `decl g;
thread void a() begin g := T; end
thread void b() begin g := F; end`
		spawns = `void t() begin skip; end
void main() begin start_thread t(); end`
		// f's enforce clause: the translation refuses it, the product
		// takes it (a livelock: a's loop with b ended).
		enforced = `decl g;
void f() begin enforce (g); g := T; end
thread void a() begin while (T) do f(); od end
thread void b() begin g := T; end`
	)
	for _, c := range []struct {
		name, src, seq string
		steps          int // a step bound the user states; 0: none
		want           result.Verdict
		err            string // a usage error containing this
	}{
		{"livelock", retry, "direct", 0, result.Unsafe, ""},
		{"livelock within a stated step bound", retry, "direct", 20, result.Unsafe, ""},
		{"none", ends, "direct", 0, result.Safe, ""},
		{"none within a stated step bound", ends, "direct", 20, result.Safe, ""},
		{"threads started", spawns, "direct", 0, 0, "does not support starting threads"},
		{"not a lasso translation", retry, "lazy", 0, 0, "--seq lazy does not apply"},
		{"what the translation refuses, the product decides", enforced, "auto", 0, result.Unsafe, ""},
		{"what the translation refuses, asked for by name", enforced, "eager", 0, 0, "enforce clause; the livelock search does not translate those yet; use --seq direct or --engine explicit"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, _, err := ir.Load(context.Background(), "l.bpl", []byte(c.src), ir.Options{})
			if err != nil {
				t.Fatal(err)
			}
			o := method.Options{Engine: "bmc", Solver: "gini", Seq: method.Seq(c.seq), MaxSteps: 50, Bounds: method.DefaultBounds()}
			if c.steps > 0 {
				o.MaxSteps, o.StepsStated = c.steps, true
			}
			res, err := Livelock(context.Background(), p, o, result.LassoBound{Stem: 1, Loop: 1})
			var ue *result.UsageError
			switch {
			case c.err != "":
				if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want a usage error about %q", err, c.err)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			if res.Verdict != c.want || !res.Lasso || !strings.Contains(res.Engine, "direct interleaving product") {
				t.Fatalf("%s by %s (lasso %v), want %s: %v", res.Verdict, res.Engine, res.Lasso, c.want, res.Limits)
			}
			if c.want == result.Unsafe && (res.Trace == nil || !res.Trace.Livelock) {
				t.Fatalf("no livelock trace: %+v", res.Trace)
			}
		})
	}
}
