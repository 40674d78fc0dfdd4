package main

import (
	"os"
	"strings"
	"syscall"
)

// faultEnv injects a fault for the tests of bmc batch, which must go on
// past a checker that panics or is killed: "panic:NAME" makes a command
// whose arguments mention NAME panic (an internal error, exit 4, as a
// bug would), "kill:NAME" makes it kill itself with SIGKILL; bmc check
// only, not the batch that names the same files. Unset, as it is
// outside those tests, it does nothing.
const faultEnv = "BMC_TEST_FAULT"

// injectFault carries out faultEnv's fault for args.
func injectFault(args []string) {
	kind, name, ok := strings.Cut(os.Getenv(faultEnv), ":")
	if !ok || name == "" || len(args) == 0 || args[0] != "check" || !strings.Contains(strings.Join(args, " "), name) {
		return
	}
	switch kind {
	case "panic":
		panic("injected fault (" + faultEnv + ")")
	case "kill":
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
	}
}
