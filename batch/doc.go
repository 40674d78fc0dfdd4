// Package batch checks many programs, one bmc process each, a few at a
// time, and keeps one JSON record per check: what `bmc batch` and `bmc
// report` do.
//
// A process per check means that a crash, a limit or a fatal error of
// one program never stops the batch, and that the peak memory of each
// check is its own (its candidates' processes included). Each check runs
// on processors of its own (internal/cpus), as many as the batch gives a
// check, and its plan races as many engines there as it would alone on
// all of the batch's processors: a check the plan's first engine cannot
// decide is still decided by the next (the sequential program
// Fixpoint2/main.bp of the corpus: explicit, 31 states, where BMC
// unwinds its loop until the timeout), and the checks do not slow each
// other.
//
// Files: jobs.go makes the list of checks (manifests of the corpus, with
// the bounds internal/corpus derives; directories, with each file's
// `// expect:` lines); run.go runs them and writes the records; record.go
// is the record and the reading of an output for --resume and report;
// summary.go sums the records up (verdicts, disagreements with the
// expected verdicts, the slowest checks) and draws the cactus plot.
//
// It is above the pipeline: it runs bmc as a command and reads what
// `bmc check --json` prints, and imports no engine.
package batch
