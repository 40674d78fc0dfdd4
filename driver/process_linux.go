package driver

import (
	"os"
	"strconv"
	"syscall"
	"unsafe"
)

// candidateProcesses says that a plan's candidates can run as processes
// pinned to their cores (see candidateEnv).
const candidateProcesses = true

// cpuSet is a processor mask as sched_setaffinity(2) reads it.
type cpuSet [16]uint64 // 1024 processors

// allowedCPUs is the processors this process may run on, in order.
func allowedCPUs() []int {
	var set cpuSet
	_, _, errno := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, 0, unsafe.Sizeof(set), uintptr(unsafe.Pointer(&set)))
	var cpus []int
	if errno == 0 {
		for i := range len(set) * 64 {
			if set[i/64]&(1<<(i%64)) != 0 {
				cpus = append(cpus, i)
			}
		}
	}
	if len(cpus) == 0 {
		return []int{0}
	}
	return cpus
}

// pinProcess keeps every thread of the process on the processors cpus:
// the threads there now, and through them the ones they start. It is a
// request; a process the kernel does not pin runs unpinned.
func pinProcess(cpus ...int) {
	var set cpuSet
	for _, cpu := range cpus {
		if cpu < 0 || cpu >= len(set)*64 {
			return
		}
		set[cpu/64] |= 1 << (cpu % 64)
	}
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return
	}
	for _, t := range tasks {
		if tid, err := strconv.Atoi(t.Name()); err == nil {
			syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, uintptr(tid), unsafe.Sizeof(set), uintptr(unsafe.Pointer(&set)))
		}
	}
}
