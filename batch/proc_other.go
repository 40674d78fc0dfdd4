//go:build !unix

package batch

import (
	"os"
	"os/exec"
)

// inGroup does nothing where processes have no groups.
func inGroup(cmd *exec.Cmd) {}

// killGroup kills cmd's process.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}

// peakMemory is not measured here.
func peakMemory(st *os.ProcessState) int64 { return 0 }
