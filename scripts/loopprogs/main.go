// Command loopprogs writes the generated looping programs of the
// benchmark table of issue 13 (docs/BENCHMARKS.md, "Looping programs")
// into a directory: Burns' mutual exclusion for 2 to 7 threads
// (burnsN.bpl) and the pump whose violation needs exactly K rounds, with
// its safe variant (pumpK.bpl, pumpK_safe.bpl, K = 2..8); and, for the
// livelock table, the TryLock dining philosophers of
// mutant-fair-nontermination, Fig. 3(a), and their ordered variant, for 2
// to 8 philosophers (philN.bpl, philN_ordered.bpl). Each file starts with
// its `// expect:` lines. scripts/bench-loops.sh and
// scripts/bench-lasso.sh run it.
//
// Usage: go run ./scripts/loopprogs DIR
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"bmc/internal/progen"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: loopprogs DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	files := map[string]string{}
	for n := 2; n <= 7; n++ {
		files[fmt.Sprintf("burns%d.bpl", n)] = progen.Burns(n)
	}
	for n := 2; n <= 8; n++ {
		files[fmt.Sprintf("phil%d.bpl", n)] = progen.Philosophers(n, false)
		files[fmt.Sprintf("phil%d_ordered.bpl", n)] = progen.Philosophers(n, true)
	}
	for k := 2; k <= 8; k++ {
		files[fmt.Sprintf("pump%d.bpl", k)] = progen.Pump(k, false)
		files[fmt.Sprintf("pump%d_safe.bpl", k)] = progen.Pump(k, true)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "loopprogs:", err)
		os.Exit(1)
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "loopprogs:", err)
			os.Exit(1)
		}
	}
}
