package driver

// candidateProcesses says that a plan's candidates can run as processes
// pinned to their cores (see candidateEnv).
const candidateProcesses = true
