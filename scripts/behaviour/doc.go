// Command behaviour prints what bmc answers on every `// expect:` line of
// examples/*.bpl: the exit status and the --json document, without the
// times, one block a line. Run on one core (--cores 1), the plan's
// candidates run one after another in the plan's order, so the answer
// does not depend on which candidate a race lets finish first: two runs
// of one commit print the same text, and a restructuring that keeps the
// behaviour (issue 54) shows an empty diff against the commit before it.
//
// Usage:
//
//	make behaviour > after.txt
//	go run ./scripts/behaviour [-bmc bin/bmc] [-timeout 120s] > after.txt
//
// A line's run that the timeout ends prints "timeout" in place of its
// answer (on one core, mutual_recursion.bpl at --depth 42 waits for BMC
// before the explicit search that would answer).
package main
