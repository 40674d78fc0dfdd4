// Package cover decides safety for every number of threads: for every
// interleaving by coverability (Check), within k round-robin rounds by
// linear interfaces (CheckRounds), and for every schedule by linear
// interfaces whose k rounds an adequacy game shows to suffice
// (Adequate), all three on one thread-transition system.
//
// Coverability: a program whose threads do not recurse
// is a well-structured transition system over configurations (shared
// state, multiset of thread states), ordered by multiset inclusion, and
// the configurations that can fail form an upward-closed set. Backward
// reachability computes the configurations that reach it, represented by
// their minimal elements, until the set stops growing (Abdulla et al.,
// "General decidability theorems for infinite-state systems"; the
// thread-transition systems of Kaiser, Kroening and Wahl's Bfc).
//
// The thread states are explicit: a thread's call stack with its
// locals, its atomic mode and the locks it holds; the shared state is
// the globals, the lock bits and whether some thread is inside an
// atomic section. Only thread states that a thread-modular forward pass
// finds reachable beside a shared state are built, and the backward
// search drops every configuration that contains another, since none
// of them is reachable.
//
// A violation comes back as a schedule of statements with the number of
// threads it needs; the driver replays it on the explicit interpreter
// with that count before it is shown. Broadcast assignments (Boom's
// `x$`) are refused: they are not a thread step of this system.
// Recursion makes the thread states infinite: recursive threads are
// cut at a call depth (Options.Depth), and an answer without a
// violation says whether a call went deeper (Outcome.Deeper).
//
// Linear interfaces (La Torre, Madhusudan and Parlato, "Model-checking
// parameterized concurrent programs using linear interfaces", sections
// 3-5) summarize a block of threads by the k shared states it takes in
// and the k it gives out over k rounds; the threads compose in their
// order, a group `f=*` as a least fixpoint, and a violation is a
// wrapped initial composition that fails (rounds.go). The adequacy
// check is the paper's game between a (k+1)-round and a k-round
// execution built thread by thread, solved as an attractor over the
// positions reachable from its starts (adequacy.go). Threads started on
// the way follow at the end of the order, from the round of their start;
// the interfaces record which starts were made in each round, an
// over-approximation whose violations are matched with the program's
// starts (rounds.go). The game takes only the threads a run starts with.
//
// It imports ir and result only.
package cover
