package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestCheckFlagMatrix runs `bmc check` with pairs of flags: those that
// contradict each other are usage errors naming both flags, the others
// are accepted (whatever the verdict).
func TestCheckFlagMatrix(t *testing.T) {
	seqProg := writeProg(t, "decl g;\nvoid main()\nbegin\n  g := T;\n  assert(g);\nend\n")
	threadProg := writeProg(t, "decl g;\nthread void a() begin g := T; end\nthread void b() begin assert(g); end\n")
	tests := []struct {
		flags []string
		prog  string
		want  []string // in the usage error, in order; nil: accepted
	}{
		// Every value is checked, whatever the engine reads.
		{[]string{"--engine", "explicit", "--solver=foo"}, seqProg, []string{`unknown solver "foo"`}},
		{[]string{"--engine", "bmc", "--seq", "foo"}, seqProg, []string{`unknown sequentialization "foo"`}},
		{[]string{"--engine", "Explicit"}, seqProg, []string{`unknown engine "Explicit"`}},
		{[]string{"--engine", "explicit", "--max-steps", "-1"}, seqProg, []string{"--max-steps must not be negative"}},
		{[]string{"--engine", "bmc", "--max-states", "0"}, seqProg, []string{"--max-states must be at least 1"}},
		// The explicit engine reads no bmc flag.
		{[]string{"--engine", "explicit", "--seq", "lazy"}, threadProg, []string{"--seq", "--engine explicit"}},
		{[]string{"--engine", "explicit", "--seq", "auto"}, threadProg, []string{"--seq", "--engine explicit"}},
		{[]string{"--engine", "explicit", "--solver", "gini"}, seqProg, []string{"--solver", "--engine explicit", "no solver"}},
		{[]string{"--engine", "explicit", "--max-steps", "10"}, seqProg, []string{"--max-steps", "--engine explicit", "no step bound"}},
		{[]string{"--engine", "explicit", "--frames"}, seqProg, []string{"--frames", "--engine explicit"}},
		// The bmc engine reads no explicit flag.
		{[]string{"--engine", "bmc", "--max-states", "100"}, seqProg, []string{"--max-states", "--engine bmc"}},
		{[]string{"--engine", "bmc", "--no-reduction"}, seqProg, []string{"--no-reduction", "--engine bmc", "partial-order reduction"}},
		{[]string{"--seq", "eager", "-k", "1", "--max-states", "100"}, threadProg, []string{"--max-states", "--seq eager, which selects the bmc engine"}},
		{[]string{"--seq", "lazy", "-k", "1", "--no-reduction"}, threadProg, []string{"--no-reduction", "--seq lazy"}},
		{[]string{"--engine", "bmc", "--switches", "1", "--no-symmetry"}, threadProg, []string{"--no-symmetry", "--engine bmc", "symmetry reduction"}},
		{[]string{"--engine", "explicit", "-k", "1", "--no-symmetry"}, threadProg, []string{"--no-symmetry", "-k", "order the thread instances"}},
		{[]string{"--engine", "bmc", "--switches", "1", "--max-threads", "2"}, threadProg, []string{"--max-threads", "--engine bmc", "sequentializations"}},
		{[]string{"--seq", "lazy", "--switches", "1", "--max-threads", "2"}, threadProg, []string{"--max-threads", "--seq lazy"}},
		{[]string{"--seq", "direct", "-k", "1", "--frames"}, threadProg, []string{"--frames", "--seq direct", "frame by frame"}},
		{[]string{"-k", "1", "--switches", "1"}, threadProg, []string{"-k", "--switches"}},
		// Every number of threads: '*', answered by two engines only.
		{[]string{"--max-threads", "0"}, threadProg, []string{"--max-threads must be between 1 and 1000, or '*'"}},
		{[]string{"--max-threads", "*", "--engine", "explicit"}, threadProg, []string{"--max-threads '*'", "--engine coverability"}},
		{[]string{"--max-threads", "*", "--seq", "lazy", "-k", "1"}, threadProg, []string{"--max-threads", "--seq lazy"}},
		{[]string{"--engine", "interfaces", "--switches", "1"}, threadProg, []string{"--engine interfaces", "-k K"}},
		{[]string{"--max-threads", "*", "--threads", "a=*"}, threadProg, nil},
		{[]string{"--engine", "interfaces", "-k", "2", "--threads", "a=*"}, threadProg, nil},
		{[]string{"--engine", "coverability", "--threads", "a=*"}, threadProg, nil},
		// Combinations that an engine reads in full.
		{[]string{"--engine", "explicit", "--max-states", "1000", "--no-reduction", "--max-threads", "2", "--switches", "1"}, threadProg, nil},
		{[]string{"--engine", "explicit", "--no-symmetry", "--switches", "1"}, threadProg, nil},
		{[]string{"--seq", "direct", "--no-symmetry", "--switches", "1"}, threadProg, nil},
		{[]string{"--engine", "bmc", "--solver", "gini", "--max-steps", "10", "--frames", "--seq", "eager", "-k", "1"}, threadProg, nil},
		{[]string{"--seq", "direct", "-k", "1", "--max-threads", "2", "--max-steps", "20"}, threadProg, nil},
		{[]string{"--engine", "bmc", "--solver", "gini", "--max-steps", "5", "--frames"}, seqProg, nil},
		// auto decides by the program, so no flag contradicts it.
		{[]string{"--solver", "gini", "--max-steps", "5", "--max-states", "100", "--no-reduction", "--max-threads", "2"}, seqProg, nil},
		{[]string{"--solver", "gini", "--frames", "--max-states", "100", "--switches", "1"}, threadProg, nil},
		{[]string{"--seq", "auto", "--max-states", "100", "-k", "1"}, threadProg, nil},
	}
	for _, tc := range tests {
		args := append(append([]string{"check", "--quiet"}, tc.flags...), tc.prog)
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		name := "bmc " + strings.Join(tc.flags, " ")
		if tc.want == nil {
			if code == exitBadInput || code == exitInternal {
				t.Errorf("%s: exit %d\nstderr:\n%s", name, code, stderr.String())
			}
			continue
		}
		msg := stderr.String()
		if code != exitBadInput || stdout.Len() > 0 || !strings.HasPrefix(msg, "bmc check: ") || strings.Count(msg, "\n") != 1 {
			t.Errorf("%s: exit %d, want a one-line usage error (exit 2)\nstdout:\n%s\nstderr:\n%s", name, code, stdout.String(), msg)
			continue
		}
		rest := msg
		for _, w := range tc.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("%s: %q does not name %q (in order %q)", name, msg, w, tc.want)
				break
			}
			rest = rest[i+len(w):]
		}
	}
}

// TestSeqExportFlags checks that bmc seq and bmc export refuse every
// value and combination they cannot honour.
func TestSeqExportFlags(t *testing.T) {
	seqProg := writeProg(t, "decl g;\nvoid main()\nbegin\n  g := T;\n  assert(g);\nend\n")
	threadProg := writeProg(t, "decl g;\nthread void a() begin g := T; end\nthread void b() begin assert(g); end\n")
	tests := []struct {
		args []string
		sub  string // "": accepted
	}{
		{[]string{"seq", "--eager", "--lazy", "-k", "1", threadProg}, "give exactly one of --eager, --lazy and --amplify"},
		{[]string{"seq", "--eager", "--amplify", "-k", "1", threadProg}, "--amplify does not go with --eager: give one translation"},
		{[]string{"seq", "--amplify", "--switches", "2", threadProg}, "--amplify needs -k K"},
		{[]string{"seq", "--amplify", "-k", "1", "--switches", "2", threadProg}, "give exactly one of -k (rounds) and --switches"},
		{[]string{"seq", "--amplify", "-k", "2", "--for", "moped", threadProg}, ""},
		{[]string{"seq", "--lazy", "-k", "1", "--switches", "2", threadProg}, "give exactly one of -k (rounds) and --switches"},
		{[]string{"seq", "--lazy", "--switches", "65", threadProg}, "--switches must be between 0 and 64"},
		{[]string{"seq", "--lazy", "-k", "1", "--threads", "a=*", threadProg}, "unboundedly many"},
		{[]string{"seq", "--lazy", "-k", "32", "--threads", "a=50,b=50", "--max-memory", "16G", threadProg}, "more than the memory limit of 16G"},
		{[]string{"seq", "--eager", "--switches", "2", "--max-memory", "64G", "--timeout", "10s", threadProg}, ""},
		{[]string{"seq", "--lazy", "-k", "1", "--for", "getafix", threadProg}, `unknown tool for --for "getafix" (available: bmc, moped)`},
		{[]string{"seq", "--lazy", "-k", "1", "--for", "moped", "-o", "/nonexistent/dir/out.bp", threadProg}, "/nonexistent/dir/out.bp"},
		{[]string{"seq", "--eager", "-k", "2", "--for", "moped", threadProg}, ""},
		{[]string{"export", "--aiger", "--property", "overflow", seqProg}, "--property does not go with --aiger"},
		{[]string{"export", "--dimacs", "3", "--property", "stack", seqProg}, `unknown property "stack" (available: violation, overflow)`},
		{[]string{"export", "--smt2", "3", "--binary", seqProg}, "--binary goes with --aiger"},
		{[]string{"export", "--smt2", "-3", seqProg}, "must not be negative"},
		{[]string{"export", "--aiger", "--depth", "0", seqProg}, "--depth must be at least 1"},
		{[]string{"export", "--dimacs", "3", "--smt2", "3", seqProg}, "give exactly one of --aiger, --dimacs K, --smt2 K"},
		{[]string{"export", "--dimacs", "3", "--property", "overflow", "--depth", "2", seqProg}, ""},
		{[]string{"export", "--aiger", "--binary", seqProg}, ""},
	}
	for _, tc := range tests {
		var stdout, stderr bytes.Buffer
		code := run(tc.args, &stdout, &stderr)
		name := "bmc " + strings.Join(tc.args, " ")
		if tc.sub == "" {
			if code != exitSafe || stdout.Len() == 0 {
				t.Errorf("%s: exit %d, %d bytes written\nstderr:\n%s", name, code, stdout.Len(), stderr.String())
			}
			continue
		}
		if code != exitBadInput || stdout.Len() > 0 || !strings.Contains(stderr.String(), tc.sub) {
			t.Errorf("%s: exit %d, want 2 with %q\nstderr:\n%s", name, code, tc.sub, stderr.String())
		}
	}
}
