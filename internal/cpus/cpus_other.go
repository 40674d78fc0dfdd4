//go:build !linux

package cpus

import "runtime"

// Pinnable says that processes and threads can be kept on processors
// here: not on this system.
const Pinnable = false

// Allowed is the processors this process may run on, in order.
func Allowed() []int {
	cpus := make([]int, runtime.NumCPU())
	for i := range cpus {
		cpus[i] = i
	}
	return cpus
}

// PinProcess does nothing where the processors cannot be chosen.
func PinProcess(cpus ...int) {}

// PinThread does nothing where the processors cannot be chosen.
func PinThread(cpus ...int) {}
