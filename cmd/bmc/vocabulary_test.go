package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"bmc/driver"
	"bmc/method"
)

var update = flag.Bool("update", false, "rewrite the vocabulary's lists in README.md and docs/USAGE.md from method/vocabulary.go")

// The generated part of docs/USAGE.md lies between these lines.
const (
	vocabularyBegin = "<!-- vocabulary: made from method/vocabulary.go by `go test ./cmd/bmc -run TestVocabularyInDocs -update`; edit the table there, not here -->"
	vocabularyEnd   = "<!-- end of the vocabulary -->"
)

// vocabularyMarkdown is the docs' part made from the table: every
// choice with its values, and the flags that do not go together.
func vocabularyMarkdown() string {
	var b strings.Builder
	b.WriteString("| flag | commands | default | values |\n|---|---|---|---|\n")
	for _, c := range method.Vocabulary {
		var values []string
		for _, v := range c.Values {
			values = append(values, fmt.Sprintf("`%s`: %s", v.Name, strings.ReplaceAll(v.Meaning, "|", `\|`)))
		}
		fmt.Fprintf(&b, "| `--%s` | %s | `%s` | %s |\n", c.Flag, strings.Join(c.Commands, ", "), c.Default, strings.Join(values, "; "))
	}
	b.WriteString("\nFlags that do not go together (a usage error, exit status 2):\n\n")
	for _, a := range driver.Aparts {
		flags := []string{"`--" + a.Flag.Flag + "`"}
		if len(a.Flag.Values) > 0 {
			flags = nil
			for _, v := range a.Flag.Values {
				flags = append(flags, "`--"+a.Flag.Flag+" "+v+"`")
			}
		}
		flag := strings.Join(flags, ", ")
		if n := len(flags); n > 1 {
			flag = strings.Join(flags[:n-1], ", ") + " or " + flags[n-1]
		}
		unless := ""
		if a.Unless != nil {
			unless = fmt.Sprintf(" (unless with `%s`)", a.Unless.Words)
		}
		fmt.Fprintf(&b, "- `bmc %s`: %s with `%s`%s: %s\n", a.Command, flag, a.When.Words, unless, a.Why)
	}
	return b.String()
}

// choiceList matches a flag of the table written with its values,
// `--engine auto|bmc|...` (in a Markdown table `\|`).
var choiceList = regexp.MustCompile(`--([a-z-]+) ([a-z0-9-]+(?:\\?\|[a-z0-9-]+)+)`)

// docsVocabulary checks (or with -update rewrites) text, the contents of
// file: every `--flag a|b|c` of a choice lists exactly its values, in
// the table's order, and in docs/USAGE.md the generated part is the
// table's. It returns the text as it should be, and what is wrong.
func docsVocabulary(file, text string) (string, []string) {
	var faults []string
	choices := map[string]method.Choice{}
	for _, c := range method.Vocabulary {
		choices[c.Flag] = c
	}
	text = choiceList.ReplaceAllStringFunc(text, func(m string) string {
		sub := choiceList.FindStringSubmatch(m)
		c, ok := choices[sub[1]]
		if !ok {
			return m
		}
		sep := "|"
		if strings.Contains(sub[2], `\|`) {
			sep = `\|`
		}
		want := strings.Join(c.Names(), sep)
		if sub[2] != want {
			faults = append(faults, fmt.Sprintf("%s lists --%s %s; the code takes %s", file, c.Flag, sub[2], strings.Join(c.Names(), "|")))
		}
		return "--" + c.Flag + " " + want
	})
	if strings.HasSuffix(file, "USAGE.md") {
		i, j := strings.Index(text, vocabularyBegin), strings.Index(text, vocabularyEnd)
		if i < 0 || j < i {
			return text, append(faults, fmt.Sprintf("%s has no generated vocabulary between %q and %q", file, vocabularyBegin, vocabularyEnd))
		}
		want := vocabularyBegin + "\n" + vocabularyMarkdown() + vocabularyEnd
		if text[i:j+len(vocabularyEnd)] != want {
			faults = append(faults, file+": the generated vocabulary is not the table's")
		}
		text = text[:i] + want + text[j+len(vocabularyEnd):]
	}
	return text, faults
}

// TestVocabularyInDocs: README.md and docs/USAGE.md list exactly the
// values the code takes, and USAGE.md's vocabulary is the table's.
// With -update, the files are rewritten from the table.
func TestVocabularyInDocs(t *testing.T) {
	for _, file := range []string{"../../README.md", "../../docs/USAGE.md"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		text, faults := docsVocabulary(file, string(data))
		if *update {
			if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		for _, f := range faults {
			t.Error(f)
		}
	}
	if !*update && t.Failed() {
		t.Log("go test ./cmd/bmc -run TestVocabularyInDocs -update rewrites them")
	}
}

// TestVocabularyInDocsFails: a value the docs do not list, or one they
// list that the code does not take, is a fault.
func TestVocabularyInDocsFails(t *testing.T) {
	all := method.EngineChoice.Names()
	names := strings.Join(all, "|")
	for _, c := range []struct{ text, fault string }{
		{"`--engine " + names + "`", ""},
		{"`--engine " + strings.Join(all[:len(all)-1], "|") + "`", "the code takes"},
		{"| `--engine " + strings.ReplaceAll(names, "|", `\|`) + `\|magic` + "` |", "the code takes"},
	} {
		_, faults := docsVocabulary("README.md", c.text)
		if got := strings.Join(faults, "\n"); c.fault == "" && got != "" || !strings.Contains(got, c.fault) {
			t.Errorf("%q: faults %q, want one with %q", c.text, got, c.fault)
		}
	}
}

// TestVocabularyHelpAndErrors: each command's help lists every value of
// its choices, a value outside them is a usage error naming them, and
// each pair of the table that does not go together is refused with its
// message.
func TestVocabularyHelpAndErrors(t *testing.T) {
	prog := writeProg(t, "decl g;\nthread void a() begin g := T; end\nthread void b() begin assert(g); end\n")
	for _, c := range method.Vocabulary {
		for _, command := range c.Commands {
			var stdout, stderr bytes.Buffer
			run([]string{command, "--help"}, &stdout, &stderr)
			for _, v := range c.Values {
				if !strings.Contains(stdout.String(), v.Name+": "+v.Meaning) {
					t.Errorf("bmc %s --help: --%s does not list %s", command, c.Flag, v.Name)
				}
			}
			stdout.Reset()
			stderr.Reset()
			code := run([]string{command, "--" + c.Flag, "bogus", prog}, &stdout, &stderr)
			want := fmt.Sprintf("unknown %s %q (available: %s)", c.Noun, "bogus", strings.Join(c.Names(), ", "))
			if code != exitBadInput || !strings.Contains(stderr.String(), want) {
				t.Errorf("bmc %s --%s bogus: exit %d, %q; want %q", command, c.Flag, code, stderr.String(), want)
			}
		}
	}
	// A value for each flag the pairs name.
	sample := map[string]string{"rounds": "1", "switches": "1", "max-steps": "5", "max-states": "100", "max-threads": "2",
		"lasso": "1,1", "certificate": t.TempDir() + "/cert", "depth": "4", "chc": "", "aiger": "", "frames": "", "no-reduction": "",
		"no-symmetry": "", "keyframes": "", "eager": "", "lazy": "", "amplify": "", "method": "pdr", "seq": "eager", "solver": "gini",
		"switch-points": "any", "property": "violation"}
	arg := func(flag, value string) []string {
		if value == "" {
			value = sample[flag]
		}
		if value == "" {
			return []string{"--" + flag}
		}
		return []string{"--" + flag, value}
	}
	for _, a := range driver.Aparts {
		value, whenValue := "", ""
		if len(a.Flag.Values) > 0 {
			value = a.Flag.Values[0]
		}
		if len(a.When.Values) > 0 {
			whenValue = a.When.Values[0]
		}
		args := append(arg(a.When.Flag, whenValue), arg(a.Flag.Flag, value)...)
		switch {
		case a.Command == "export" && !slices.ContainsFunc(args, func(s string) bool { return s == "--aiger" || s == "--chc" }):
			args = append(args, "--aiger") // one format
		case a.Command == "seq" && !slices.ContainsFunc(args, func(s string) bool { return s == "--lasso" || s == "--eager" || s == "--lazy" }):
			args = append(args, "--lazy") // one translation
		}
		line := append(append([]string{a.Command}, args...), prog)
		var stdout, stderr bytes.Buffer
		code := run(line, &stdout, &stderr)
		if want := a.Message(value); code != exitBadInput || !strings.Contains(stderr.String(), want) {
			t.Errorf("bmc %s: exit %d, %q; want %q", strings.Join(line, " "), code, stderr.String(), want)
		}
	}
}
