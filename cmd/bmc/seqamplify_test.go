package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestSeqAmplify prints L^K (bmc seq --amplify) and checks it with bmc
// check: its assertion fails exactly when a state at BASE in the
// envelope reaches a violation within K rounds. In racy, any state where
// the other thread's flag is up fails at once; in the envelope example
// (Example 4.1) the failing handshake is dead code, outside the
// envelope, so no state at BASE fails.
func TestSeqAmplify(t *testing.T) {
	racy := writeProg(t, `decl a, b;
thread void ta() begin a := T; assert(!b); a := F; end
thread void tb() begin b := T; assert(!a); b := F; end
`)
	tests := []struct {
		prog string
		k    string
		code int
		want string
	}{
		{racy, "1", exitViolation, "unsafe: violation found"},
		{"../../examples/kind_envelope.bpl", "1", exitSafe, "safe: no violation"},
		{"../../examples/kind_envelope.bpl", "2", exitSafe, "safe: no violation"},
	}
	for _, tc := range tests {
		out := filepath.Join(t.TempDir(), "l.bpl")
		var stdout, stderr bytes.Buffer
		if code := run([]string{"seq", "--amplify", "-k", tc.k, "-o", out, tc.prog}, &stdout, &stderr); code != 0 {
			t.Fatalf("seq --amplify -k %s %s: exit %d\n%s", tc.k, tc.prog, code, stderr.String())
		}
		stdout.Reset()
		stderr.Reset()
		code := run([]string{"check", "--quiet", "--depth", "64", out}, &stdout, &stderr)
		if code != tc.code || !strings.Contains(stdout.String()+stderr.String(), tc.want) {
			t.Errorf("check of L^%s of %s: exit %d, want %d with %q\n%s%s", tc.k, tc.prog, code, tc.code, tc.want, stdout.String(), stderr.String())
		}
	}
}
