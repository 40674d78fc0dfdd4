//go:build unix

package batch

import (
	"os"
	"os/exec"
	"runtime"
	"syscall"
)

// inGroup makes cmd the leader of a process group of its own, so that
// killGroup ends its candidates' processes with it.
func inGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills cmd's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// peakMemory is the largest resident size of the check's process and of
// the processes it waited for (its candidates'), in bytes.
func peakMemory(st *os.ProcessState) int64 {
	ru, ok := st.SysUsage().(*syscall.Rusage)
	switch {
	case !ok:
		return 0
	case runtime.GOOS == "darwin":
		return int64(ru.Maxrss) // bytes there
	}
	return int64(ru.Maxrss) * 1024 // kilobytes on Linux and the BSDs
}
