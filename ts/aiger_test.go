package ts

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"bmc/internal/peer"
)

// TestWriteAIGERText compares whole files with hand-checked ones: the
// renumbering (inputs, latches, ands), the header's optional B C J F
// fields, the order of the sections and the symbol table.
func TestWriteAIGERText(t *testing.T) {
	const (
		comment = "c\nwritten by bmc; each output is a bad-state property\n"
		live    = "c\nwritten by bmc; outputs named for liveness-to-safety (ABC's l2s): assert_fair, assume_fair_*\n"
	)
	cases := []struct {
		name          string
		build         func() *System
		ascii, binary string
	}{{
		// Without justice or fairness the file is plain AIGER 1.0: the
		// bad property is an output. A free latch reads the input
		// "init l" in the first frame (ZeroInit); the constraint is
		// folded with the latch constraint_failed (Folded).
		name: "safety only",
		build: func() *System {
			s := New()
			a := s.NewInput("a")
			l := s.NewLatch("l", InitFree)
			s.SetNext(l, a)
			s.AddBad("p", l)
			s.AddConstraint(a)
			return s
		},
		ascii: "aag 10 2 3 1 5\n2\n4\n6 1\n8 2\n10 19\n20\n" +
			"12 8 6\n14 7 4\n16 15 13\n18 11 2\n20 17 11\n" +
			"i0 a\ni1 init l\nl0 started\nl1 l\nl2 constraint_failed\no0 p\n" + comment,
		binary: "aig 10 2 3 1 5\n1\n2\n19\n20\n" +
			"\x04\x02\x07\x03\x01\x02\x07\x09\x03\x06" +
			"i0 a\ni1 init l\nl0 started\nl1 l\nl2 constraint_failed\no0 p\n" + comment,
	}, {
		// With justice the file is AIGER 1.9: header B=1 C=0 J=2 F=1,
		// the bad property in the bad section (b0), then the justice
		// sizes 2 and 0, the literals of j0 (l, !a) and the fairness
		// literal a.
		name: "justice and fairness",
		build: func() *System {
			s := New()
			a := s.NewInput("a")
			l := s.NewLatch("l", Init0)
			s.SetNext(l, a)
			s.AddBad("bad", s.And(a, l))
			s.AddJustice("live", l, a.Not())
			s.AddJustice("any")
			s.AddFairness(a)
			return s
		},
		ascii: "aag 3 1 1 0 1 1 0 2 1\n2\n4 2\n6\n2\n0\n4\n3\n2\n6 4 2\n" +
			"i0 a\nl0 l\nb0 bad\nj0 live\nj1 any\nc\nwritten by bmc\n",
		binary: "aig 3 1 1 0 1 1 0 2 1\n2\n6\n2\n0\n4\n3\n2\n\x02\x02" +
			"i0 a\nl0 l\nb0 bad\nj0 live\nj1 any\nc\nwritten by bmc\n",
	}, {
		// The folded constraint becomes the fairness literal 7, "no
		// constraint has failed"; without bad properties B is 0 but
		// stays in the header, as J and F follow it.
		name: "justice with a constraint",
		build: func() *System {
			s := New()
			a := s.NewInput("a")
			l := s.NewLatch("l", Init0)
			s.SetNext(l, a)
			s.AddConstraint(a)
			s.AddJustice("j", l)
			return s
		},
		ascii: "aag 4 1 2 0 1 0 0 1 1\n2\n4 2\n6 9\n1\n4\n7\n8 7 2\n" +
			"i0 a\nl0 l\nl1 constraint_failed\nj0 j\nc\nwritten by bmc\n",
		binary: "aig 4 1 2 0 1 0 0 1 1\n2\n9\n1\n4\n7\n\x01\x05" +
			"i0 a\nl0 l\nl1 constraint_failed\nj0 j\nc\nwritten by bmc\n",
	}, {
		// Fairness alone keeps the zero J count before F; a constant
		// true fairness constraint is dropped.
		name: "fairness only",
		build: func() *System {
			s := New()
			a := s.NewInput("a")
			l := s.NewLatch("l", Init0)
			s.SetNext(l, a)
			s.AddBad("p", l)
			s.AddFairness(a.Not())
			s.AddFairness(True)
			return s
		},
		ascii:  "aag 2 1 1 0 0 1 0 0 1\n2\n4 2\n4\n3\ni0 a\nl0 l\nb0 p\nc\nwritten by bmc\n",
		binary: "aig 2 1 1 0 0 1 0 0 1\n2\n4\n3\ni0 a\nl0 l\nb0 p\nc\nwritten by bmc\n",
	}, {
		// LivenessOutputs of the system above: plain outputs, false
		// (assert_fair), the justice literal l and the folded
		// constraint's "none has failed" (7).
		name: "liveness outputs",
		build: func() *System {
			s := New()
			a := s.NewInput("a")
			l := s.NewLatch("l", Init0)
			s.SetNext(l, a)
			s.AddConstraint(a)
			s.AddJustice("j", l)
			return s.LivenessOutputs(0)
		},
		ascii: "aag 4 1 2 3 1\n2\n4 2\n6 9\n0\n4\n7\n8 7 2\n" +
			"i0 a\nl0 l\nl1 constraint_failed\no0 assert_fair\no1 assume_fair_j_0\no2 assume_fair_0\n" + live,
		binary: "aig 4 1 2 3 1\n2\n9\n0\n4\n7\n\x01\x05" +
			"i0 a\nl0 l\nl1 constraint_failed\no0 assert_fair\no1 assume_fair_j_0\no2 assume_fair_0\n" + live,
	}}
	for _, c := range cases {
		for _, binary := range []bool{false, true} {
			var buf bytes.Buffer
			if err := c.build().WriteAIGER(&buf, binary); err != nil {
				t.Fatal(err)
			}
			want := c.ascii
			if binary {
				want = c.binary
			}
			if got := buf.String(); got != want {
				t.Errorf("%s, binary %v:\ngot  %q\nwant %q", c.name, binary, got, want)
			}
		}
	}
}

// TestReadersRead has third-party readers read exports of random
// systems: ABC (read_aiger) each binary file of AIGER 1.0 it takes, a
// safety system and the liveness outputs its l2s reads (under CI ABC must
// be installed); and, when installed, the AIGER library's own reader
// aigtoaig, which the format report names for validating files, every
// file, ASCII and binary, with and without justice and fairness.
func TestReadersRead(t *testing.T) {
	write := func(s *System, binary bool) (string, string) {
		var buf bytes.Buffer
		if err := s.WriteAIGER(&buf, binary); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), map[bool]string{false: "p.aag", true: "p.aig"}[binary])
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path, buf.String()
	}
	t.Run("ABC", func(t *testing.T) {
		abc := peer.Need(t, peer.ABC)
		for seed := int64(1); seed <= 3; seed++ {
			for _, live := range []bool{false, true} {
				s := randomSystem(rand.New(rand.NewSource(seed)), live)
				if live {
					s = s.LivenessOutputs(0)
				}
				path, text := write(s, true)
				out, err := exec.Command(abc, "-c", "read_aiger "+path+"; print_stats").CombinedOutput()
				if err != nil || !strings.Contains(string(out), "i/o =") || strings.Contains(string(out), "failed") {
					t.Errorf("seed %d, liveness outputs %v: ABC did not read the file (%v):\n%s\n%q", seed, live, err, out, text)
				}
				peer.Case(t, peer.ABC, fmt.Sprintf("read_aiger, seed %d, liveness outputs %v", seed, live))
			}
		}
	})
	t.Run("aigtoaig", func(t *testing.T) {
		tool := peer.Need(t, peer.Aigtoaig)
		for _, live := range []bool{false, true} {
			s := randomSystem(rand.New(rand.NewSource(1)), live)
			for _, binary := range []bool{false, true} {
				path, text := write(s, binary)
				if out, err := exec.Command(tool, "-a", path).CombinedOutput(); err != nil {
					t.Errorf("live %v, binary %v: aigtoaig: %v\n%s\n%s", live, binary, err, out, text)
				}
				peer.Case(t, peer.Aigtoaig, fmt.Sprintf("live %v, binary %v", live, binary))
			}
		}
	})
}
