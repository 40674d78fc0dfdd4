package cpus

import (
	"os"
	"strconv"
	"syscall"
	"unsafe"
)

// Pinnable says that processes and threads can be kept on processors
// here.
const Pinnable = true

// set is a processor mask as sched_setaffinity(2) reads it.
type set [16]uint64 // 1024 processors

func maskOf(cpus []int) (set, bool) {
	var s set
	for _, cpu := range cpus {
		if cpu < 0 || cpu >= len(s)*64 {
			return s, false
		}
		s[cpu/64] |= 1 << (cpu % 64)
	}
	return s, len(cpus) > 0
}

func setAffinity(tid int, s *set) {
	syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, uintptr(tid), unsafe.Sizeof(*s), uintptr(unsafe.Pointer(s)))
}

// Allowed is the processors this thread may run on, in order.
func Allowed() []int {
	var s set
	_, _, errno := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, 0, unsafe.Sizeof(s), uintptr(unsafe.Pointer(&s)))
	var cpus []int
	if errno == 0 {
		for i := range len(s) * 64 {
			if s[i/64]&(1<<(i%64)) != 0 {
				cpus = append(cpus, i)
			}
		}
	}
	if len(cpus) == 0 {
		return []int{0}
	}
	return cpus
}

// PinProcess keeps every thread of the process on the processors cpus:
// the threads there now, and through them the ones they start. It is a
// request; a process the kernel does not pin runs unpinned.
func PinProcess(cpus ...int) {
	s, ok := maskOf(cpus)
	if !ok {
		return
	}
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return
	}
	for _, t := range tasks {
		if tid, err := strconv.Atoi(t.Name()); err == nil {
			setAffinity(tid, &s)
		}
	}
}

// PinThread keeps the calling thread, and the processes it starts, on
// the processors cpus. The caller holds the thread
// (runtime.LockOSThread) and does not give it back to other goroutines.
func PinThread(cpus ...int) {
	if s, ok := maskOf(cpus); ok {
		setAffinity(0, &s)
	}
}
