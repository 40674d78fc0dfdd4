package explicit

import (
	"bmc/ir"
	"bmc/result"
	"strings"
	"testing"
)

// TestTraceShowsChosenValues: values are kept symbolic until read, but the
// trace shows each where it was chosen, and uninitialised globals that
// matter as initial values.
func TestTraceShowsChosenValues(t *testing.T) {
	src := `decl g, unused;
void main() begin
  decl x;
  x := *;
  if g then skip; fi
  assert(!x);
end`
	res := runExplicit(t, loadText(t, "t.bpl", src, ir.Options{}), DefaultOptions())
	if res.Verdict != result.Unsafe {
		t.Fatalf("verdict %s", res.Verdict)
	}
	var lines []string
	for _, s := range res.Trace.Steps {
		lines = append(lines, s.Event+"|"+s.Stmt+"|"+strings.Join(s.Changes, " "))
	}
	got := strings.Join(lines, "\n")
	for _, want := range []string{"initial values: g=", "|x := *;|x=T"} {
		if !strings.Contains(got, want) {
			t.Errorf("trace lacks %q:\n%s", want, got)
		}
	}
	if res.Trace.Switches != 0 {
		t.Errorf("a one-thread trace reports %d context switches", res.Trace.Switches)
	}
	if strings.Contains(got, "unused") {
		t.Errorf("trace shows a global that is never read:\n%s", got)
	}
}
