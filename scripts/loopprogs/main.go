package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"bmc/internal/progen"
)

func main() {
	// A flag is no directory (-h once made one named "-h").
	if len(os.Args) != 2 || strings.HasPrefix(os.Args[1], "-") {
		fmt.Fprintln(os.Stderr, "usage: loopprogs DIR (writes the generated programs into DIR)")
		os.Exit(2)
	}
	dir := os.Args[1]
	files := map[string]string{}
	for n := 2; n <= 12; n++ {
		files[fmt.Sprintf("burns%d.bpl", n)] = progen.Burns(n)
		files[fmt.Sprintf("burns%d_bug.bpl", n)] = progen.BurnsBuggy(n)
		files[fmt.Sprintf("flags%d.bpl", n)] = progen.FlagMutex(n, false)
		files[fmt.Sprintf("flags%d_bug.bpl", n)] = progen.FlagMutex(n, true)
	}
	for n := 4; n <= 20; n += 4 {
		files[fmt.Sprintf("permutation%d_late.bpl", n)] = progen.PermutationLate(n)
	}
	for n := 2; n <= 16; n++ {
		files[fmt.Sprintf("phil%d.bpl", n)] = progen.Philosophers(n, false)
		files[fmt.Sprintf("phil%d_ordered.bpl", n)] = progen.Philosophers(n, true)
	}
	for n := 1; n <= 8; n++ {
		files[fmt.Sprintf("handshake%d.bpl", n)] = progen.HandshakePump(n)
	}
	for n := 2; n <= 3; n++ {
		files[fmt.Sprintf("lock_unlock%d.bpl", n)] = progen.LockUnlock(n, 2)
	}
	for k := 2; k <= 8; k++ {
		files[fmt.Sprintf("pump%d.bpl", k)] = progen.Pump(k, false)
		files[fmt.Sprintf("pump%d_safe.bpl", k)] = progen.Pump(k, true)
	}
	for n := 4; n <= 10; n++ {
		for _, shape := range []progen.RecursionShape{progen.SelfCount, progen.HelperCount, progen.ParamCount, progen.MutualCount} {
			for _, threads := range []bool{false, true} {
				r := progen.Recursion{Shape: shape, Bits: n, Target: 1<<n - 1, Threads: threads}
				files["rec_"+r.Name()] = r.Program()
			}
		}
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
