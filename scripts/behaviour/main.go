package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"bmc/batch"
)

func main() {
	bin := flag.String("bmc", "bin/bmc", "the bmc binary")
	timeout := flag.Duration("timeout", 120*time.Second, "the limit of one line's run")
	flag.Parse()
	files, err := filepath.Glob("examples/*.bpl")
	if err != nil || len(files) == 0 {
		fmt.Fprintf(os.Stderr, "behaviour: no examples/*.bpl here (%v): run it in the repository's root\n", err)
		os.Exit(2)
	}
	for _, path := range files {
		exps, err := batch.ReadExpectations(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "behaviour:", err)
			os.Exit(2)
		}
		for _, exp := range exps {
			fmt.Printf("== %s:%d %s %s\n", path, exp.Line, exp.Verdict, strings.Join(exp.Flags, " "))
			fmt.Println(answer(*bin, *timeout, path, exp.Flags))
		}
	}
}

// answer runs bmc check on one line and prints its exit status and its
// JSON document without times.
func answer(bin string, timeout time.Duration, path string, flags []string) string {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	args := append(append([]string{"check", "--quiet", "--json", "--cores", "1"}, flags...), path)
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdout = &out
	err := cmd.Run()
	if ctx.Err() != nil {
		return "timeout"
	}
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		return "error: " + err.Error()
	}
	var doc map[string]any
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		return fmt.Sprintf("exit %d, not JSON:\n%s", code, out.String())
	}
	delete(doc, "seconds")
	if plan, ok := doc["plan"].([]any); ok {
		for _, c := range plan {
			if m, ok := c.(map[string]any); ok {
				delete(m, "after_seconds")
			}
		}
	}
	text, _ := json.MarshalIndent(doc, "", "  ") // map keys sorted
	return fmt.Sprintf("exit %d\n%s", code, text)
}
