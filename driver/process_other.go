//go:build !linux

package driver

// candidateProcesses says that a plan's candidates can run as processes
// pinned to their cores (see candidateEnv): only on Linux, where a
// process chooses its processors and a parent hands a child pipes
// beyond its standard ones portably enough.
const candidateProcesses = false
