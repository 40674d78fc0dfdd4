package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
)

// event is one line of go test -json (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// peerLine matches what internal/peer logs: a case decided with a peer,
// or a comparison skipped for a missing one.
var peerLine = regexp.MustCompile(`peer (case|missing|required): ([^:]+):`)

func main() {
	peers := flag.String("peers", "", "accumulate the counts of peer cases and skips in `FILE`")
	print := flag.Bool("print", false, "with -peers: print the line of counts in FILE and exit")
	flag.Parse()
	if *print {
		if *peers == "" {
			fmt.Fprintln(os.Stderr, "testreport: -print needs -peers FILE")
			os.Exit(2)
		}
		c, err := load(*peers)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testreport:", err)
			os.Exit(2)
		}
		fmt.Println(c.line())
		return
	}
	failed, c, err := report(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(2)
	}
	if *peers != "" {
		old, err := load(*peers)
		if err == nil {
			c.add(old)
		}
		if err := c.save(*peers); err != nil {
			fmt.Fprintln(os.Stderr, "testreport:", err)
			os.Exit(2)
		}
	}
	if failed {
		os.Exit(1)
	}
}

// report copies the events of in to out as go test prints them and
// returns whether anything failed, and the peer counts.
func report(in io.Reader, out io.Writer) (bool, counts, error) {
	c := counts{}
	failed := false
	// The output of each running test, printed if it fails.
	outputs := map[string][]string{}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if err := json.Unmarshal(line, &e); err != nil || e.Action == "" {
			// Not an event: a build error printed before the events.
			fmt.Fprintln(out, string(line))
			continue
		}
		key := e.Package + " " + e.Test
		switch e.Action {
		case "output":
			if m := peerLine.FindStringSubmatch(e.Output); m != nil {
				c[m[1]+" "+m[2]]++
			}
			if e.Test != "" {
				outputs[key] = append(outputs[key], e.Output)
				continue
			}
			// The package's own lines: its verdict, a panic or a
			// build failure; not the verbose mode's PASS/RUN lines.
			if o := strings.TrimSpace(e.Output); o == "PASS" || o == "FAIL" || strings.HasPrefix(o, "=== ") || strings.HasPrefix(o, "--- ") {
				continue
			}
			fmt.Fprint(out, e.Output)
		case "fail":
			failed = true
			for _, o := range outputs[key] {
				if !strings.HasPrefix(o, "=== ") {
					fmt.Fprint(out, o)
				}
			}
			delete(outputs, key)
		case "pass", "skip":
			delete(outputs, key)
		}
	}
	return failed, c, sc.Err()
}

// counts are the peer lines seen: "case ABC", "missing Moped" (a
// comparison skipped) and "required ABC" (a test failed) keys.
type counts map[string]int

func (c counts) add(o counts) {
	for k, n := range o {
		c[k] += n
	}
}

// line words the counts: "peers: ABC 13 cases, z3 9 cases; Moped not
// installed: 3 comparisons skipped" (or, under CI, "ABC not installed: 3
// tests failed").
func (c counts) line() string {
	var used, missing []string
	for k, n := range c {
		kind, name, _ := strings.Cut(k, " ")
		switch kind {
		case "case":
			used = append(used, fmt.Sprintf("%s %d %s", name, n, plural(n, "case")))
		case "missing":
			missing = append(missing, fmt.Sprintf("%s not installed: %d %s skipped", name, n, plural(n, "comparison")))
		default:
			missing = append(missing, fmt.Sprintf("%s not installed: %d %s failed", name, n, plural(n, "test")))
		}
	}
	sort.Strings(used)
	sort.Strings(missing)
	if len(used) == 0 {
		used = []string{"no case decided with a peer"}
	}
	s := "peers: " + strings.Join(used, ", ")
	if len(missing) > 0 {
		s += "; " + strings.Join(missing, "; ")
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// load reads counts saved by save; a missing file is no counts.
func load(file string) (counts, error) {
	c := counts{}
	data, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return c, nil
	}
	return c, json.Unmarshal(data, &c)
}

func (c counts) save(file string) error {
	data, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return os.WriteFile(file, data, 0o644)
}
