package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"bmc/internal/peer"
)

// TestABCAgrees exports examples as AIGER and checks them with ABC: an
// unsafe sequential one must fail at the bound where bmc finds the
// violation, a safe one must be proved by pdr, and pdr must find the
// violation of an unsafe concurrent one, in the interleaving product or
// a sequentialization. The bounded cases pin the bmc engine, whose
// steps are ABC's frames. Under CI ABC must be installed.
func TestABCAgrees(t *testing.T) {
	abc := peer.Need(t, peer.ABC)
	frameRe := regexp.MustCompile(`asserted in frame (\d+)`)
	boundRe := regexp.MustCompile(`violation found within (\d+) steps`)
	cases := []struct {
		file          string
		check, export []string // flags of each command
		safe          bool
		concurrent    bool // decided by pdr: bmc's steps are not ABC's frames
	}{
		{"seq_counter.bpl", []string{"--engine", "bmc", "--max-steps", "20"}, nil, false, false},
		{"seq_recursion.bpl", []string{"--engine", "bmc", "--depth", "5", "--max-steps", "40"}, []string{"--depth", "5"}, false, false},
		{"seq_swap.bpl", nil, nil, true, false},
		{"dekker.bpl", nil, []string{"--switches", "2"}, true, true},
		{"dekker.bpl", nil, []string{"--seq", "eager", "--switches", "0"}, true, true},
		{"peterson.bpl", nil, []string{"--seq", "lazy", "--switches", "0"}, true, true},
		{"peterson.bpl", nil, nil, true, true}, // every interleaving
		{"permutation_late.bpl", nil, []string{"--switches", "3"}, false, true},
		{"peterson_buggy.bpl", nil, []string{"--seq", "eager", "--switches", "2"}, false, true},
	}
	for _, c := range cases {
		prog := filepath.Join("../../examples", c.file)
		var aig, stderr bytes.Buffer
		args := append([]string{"export", "--aiger", "--binary"}, c.export...)
		if code := run(append(args, prog), &aig, &stderr); code != 0 {
			t.Fatalf("%s: export exit %d: %s", c.file, code, stderr.String())
		}
		path := filepath.Join(t.TempDir(), "p.aig")
		if err := os.WriteFile(path, aig.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if c.safe || c.concurrent {
			out, _ := exec.Command(abc, "-c", "read_aiger "+path+"; pdr").CombinedOutput()
			if want := map[bool]string{true: "Property proved", false: "was asserted"}[c.safe]; !strings.Contains(string(out), want) {
				t.Errorf("%s %v: ABC pdr did not say %q:\n%s", c.file, c.export, want, out)
			}
			peer.Case(t, peer.ABC, fmt.Sprintf("pdr on %s %v", c.file, c.export))
			continue
		}
		var check bytes.Buffer
		run(append(append([]string{"check", "--quiet"}, c.check...), prog), &check, &stderr)
		want := boundRe.FindStringSubmatch(check.String())
		out, _ := exec.Command(abc, "-c", "read_aiger "+path+"; bmc3 -F 40").CombinedOutput()
		got := frameRe.FindStringSubmatch(string(out))
		if want == nil || got == nil || want[1] != got[1] {
			t.Errorf("%s: bmc says %q, ABC says %q\n%s", c.file, want, got, out)
		}
		peer.Case(t, peer.ABC, "bmc3 on "+c.file)
	}
}

// TestABCLiveness exports livelock questions with --liveness-outputs and
// has ABC decide them (l2s, then pdr): it must find a fair loop exactly
// where bmc check --lasso finds a livelock, under each fairness. Skipped
// when ABC is not installed, except under CI.
func TestABCLiveness(t *testing.T) {
	abc := peer.Need(t, peer.ABC)
	for _, c := range []struct {
		file, fairness string
		livelock       bool
	}{
		{"mutant_fig1a_init.bpl", "weak", false},
		{"mutant_fig1a_init.bpl", "none", true},
		{"lock_handoff_weak.bpl", "strong", false},
		{"lock_handoff_weak.bpl", "weak", true},
	} {
		prog := filepath.Join("../../examples", c.file)
		var check, stderr bytes.Buffer
		code := run([]string{"check", "--quiet", "--lasso", "1,1", "--fairness", c.fairness, prog}, &check, &stderr)
		if want := map[bool]int{true: 10, false: 0}[c.livelock]; code != want {
			t.Fatalf("%s --fairness %s: bmc check exit %d, want %d\n%s%s", c.file, c.fairness, code, want, check.String(), stderr.String())
		}
		var aig bytes.Buffer
		if code := run([]string{"export", "--aiger", "--binary", "--liveness-outputs", "--lasso", "1,1", "--fairness", c.fairness, prog}, &aig, &stderr); code != 0 {
			t.Fatalf("%s: export exit %d: %s", c.file, code, stderr.String())
		}
		path := filepath.Join(t.TempDir(), "p.aig")
		if err := os.WriteFile(path, aig.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		out, _ := exec.Command(abc, "-c", "read_aiger "+path+"; l2s -s; pdr").CombinedOutput()
		if want := map[bool]string{true: "was asserted", false: "Property proved"}[c.livelock]; !strings.Contains(string(out), want) {
			t.Errorf("%s --fairness %s: ABC l2s and pdr did not say %q:\n%s", c.file, c.fairness, want, out)
		}
		peer.Case(t, peer.ABC, fmt.Sprintf("l2s and pdr on %s --fairness %s", c.file, c.fairness))
	}
}
