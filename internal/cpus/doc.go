// Package cpus names the processors a process may run on and keeps a
// process, or the thread that starts a child, on some of them: the
// driver pins each raced candidate's process to its core, and bmc batch
// starts each check on processors of its own. On Linux through
// sched_getaffinity(2) and sched_setaffinity(2); elsewhere every
// processor is allowed and pinning does nothing.
package cpus
