//go:build !linux

package driver

import "runtime"

// candidateProcesses says that a plan's candidates can run as processes
// pinned to their cores (see candidateEnv): only on Linux, where a
// process chooses its processors and a parent hands a child pipes
// beyond its standard ones portably enough.
const candidateProcesses = false

// allowedCPUs is the processors this process may run on, in order.
func allowedCPUs() []int {
	cpus := make([]int, runtime.NumCPU())
	for i := range cpus {
		cpus[i] = i
	}
	return cpus
}

// pinProcess is a no-op where the processors cannot be chosen.
func pinProcess(cpus ...int) {}
