// Package cover decides safety for every number of threads and every
// interleaving by coverability: a program whose threads do not recurse
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
// `x$`) and recursive threads are refused: the first is not a thread
// step of this system, the second makes the thread states infinite.
//
// It imports ir and result only.
package cover
