// Package driver runs bmc's pipeline for a question, so that the command
// line stays thin. It is the only place that chooses: the engine (the
// explicit checker, or bounded model checking with gini or Z3), the
// sequentialization of a concurrent program (eager, lazy, or the direct
// interleaving product), the encoding and the call depth; and the only
// place above the engines that knows programs: it reads a witness back as
// steps of the program (through the encoding and the sequentialization),
// has it replayed on the explicit interpreter before it is shown, and
// words the result under the verdict rule (a search that a bound the user
// did not state cut short is unknown). It also holds the time and memory
// limits and the comparison with Moped.
//
// Files: driver.go (Check: options, the choice of engine), bmc.go (BMC on
// one encoded program), unwind.go (loops unwound until the unwinding
// provably suffices, raced against PDR), prove.go (the proof engines),
// encoding.go (bmc export), concurrent.go (context bounds deepened one
// at a time), compare.go (bmc compare), limit.go (time and memory).
//
// It may import every bmc package but cmd/bmc; explicit is imported only
// here and in tests.
package driver
