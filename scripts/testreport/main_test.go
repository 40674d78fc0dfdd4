package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestReport(t *testing.T) {
	for _, c := range []struct {
		name, events string
		failed       bool
		out, peers   string
	}{{
		name: "a passing package with peer cases and a skip",
		events: `{"Action":"run","Package":"bmc/x","Test":"TestA"}
{"Action":"output","Package":"bmc/x","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"output","Package":"bmc/x","Test":"TestA","Output":"    a_test.go:9: peer case: ABC: pdr on a.bpl\n"}
{"Action":"output","Package":"bmc/x","Test":"TestA","Output":"    a_test.go:9: peer case: ABC: pdr on b.bpl\n"}
{"Action":"pass","Package":"bmc/x","Test":"TestA"}
{"Action":"output","Package":"bmc/x","Test":"TestB","Output":"    b_test.go:3: peer missing: Moped: moped is not installed\n"}
{"Action":"skip","Package":"bmc/x","Test":"TestB"}
{"Action":"output","Package":"bmc/x","Output":"PASS\n"}
{"Action":"output","Package":"bmc/x","Output":"ok  \tbmc/x\t0.1s\n"}
{"Action":"pass","Package":"bmc/x"}
`,
		out:   "ok  \tbmc/x\t0.1s\n",
		peers: "peers: ABC 2 cases; Moped not installed: 1 comparison skipped",
	}, {
		name: "a failing subtest prints its output, not its siblings'",
		events: `{"Action":"output","Package":"bmc/y","Test":"TestC/ok","Output":"    c_test.go:4: fine\n"}
{"Action":"pass","Package":"bmc/y","Test":"TestC/ok"}
{"Action":"output","Package":"bmc/y","Test":"TestC/bad","Output":"=== RUN   TestC/bad\n"}
{"Action":"output","Package":"bmc/y","Test":"TestC/bad","Output":"    c_test.go:5: wrong\n"}
{"Action":"fail","Package":"bmc/y","Test":"TestC/bad"}
{"Action":"output","Package":"bmc/y","Test":"TestC","Output":"--- FAIL: TestC (0.00s)\n"}
{"Action":"fail","Package":"bmc/y","Test":"TestC"}
{"Action":"output","Package":"bmc/y","Output":"FAIL\n"}
{"Action":"output","Package":"bmc/y","Output":"FAIL\tbmc/y\t0.2s\n"}
{"Action":"fail","Package":"bmc/y"}
`,
		failed: true,
		out:    "    c_test.go:5: wrong\n--- FAIL: TestC (0.00s)\nFAIL\tbmc/y\t0.2s\n",
		peers:  "peers: no case decided with a peer",
	}, {
		name:   "a build error before the events",
		events: "# bmc/z\nz.go:1:1: expected 'package'\n" + `{"Action":"output","Package":"bmc/z","Output":"FAIL\tbmc/z [build failed]\n"}` + "\n" + `{"Action":"fail","Package":"bmc/z"}` + "\n",
		failed: true,
		out:    "# bmc/z\nz.go:1:1: expected 'package'\nFAIL\tbmc/z [build failed]\n",
		peers:  "peers: no case decided with a peer",
	}} {
		var out strings.Builder
		failed, counts, err := report(strings.NewReader(c.events), &out)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if failed != c.failed || out.String() != c.out || counts.line() != c.peers {
			t.Errorf("%s: failed %v, output\n%q\npeers %q; want %v,\n%q\n%q", c.name, failed, out.String(), counts.line(), c.failed, c.out, c.peers)
		}
	}
}

// TestCountsAccumulate: two runs' counts add up in the file.
func TestCountsAccumulate(t *testing.T) {
	file := filepath.Join(t.TempDir(), "peers.json")
	for _, c := range []counts{{"case z3": 2, "required ABC": 1}, {"case z3": 1, "missing Moped": 3, "required ABC": 2}} {
		old, err := load(file)
		if err != nil {
			t.Fatal(err)
		}
		c.add(old)
		if err := c.save(file); err != nil {
			t.Fatal(err)
		}
	}
	c, err := load(file)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.line(), "peers: z3 3 cases; ABC not installed: 3 tests failed; Moped not installed: 3 comparisons skipped"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
