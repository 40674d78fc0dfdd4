// Package driver answers a question about a program, so that the
// command line stays thin. It is the only place that chooses: one
// function (makePlan) makes the plan of a run from the program and the
// options (which methods may answer, in which order, on how many cores),
// and the rest only executes it: the candidates race on the machine's
// cores, the first decisive answer wins and the others are stopped. The
// methods themselves (encode, run an engine, read back, replay, word the
// answer) are the package method's. It holds the time and memory limits
// of a run, the flags that do not go together, and bmc compare.
//
// Files:
//   - driver.go: the entry points Check, Prove and Livelock, which make
//     the plan and run it;
//   - plan.go, parameterized.go: the plan (every choice of method; one
//     question, one plan: check without a bound races what prove
//     races), and the call depth the question has (a program's own
//     deepest stack unless it recurses or the user states one) and its
//     answers name;
//   - vocabulary.go: the flags that do not go together, from which
//     cmd/bmc makes usage errors;
//   - portfolio.go: the race of a plan's candidates on the run's cores;
//   - process.go: the candidates as processes of their own, pinned to
//     their cores (internal/cpus: the processors), the processors
//     lent to them when others end, and the limits held by the parent;
//   - compare.go: bmc compare;
//   - limit.go: time and memory limits.
package driver
