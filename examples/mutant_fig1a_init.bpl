// expect: safe -k 3
// expect: safe --switches 4
// expect: no-livelock --lasso 1,1
// expect: no-livelock --lasso 2,1
// expect: no-livelock --lasso 2,2
// expect: no-livelock --lasso 2,2 --fairness weak
// expect: livelock --lasso 0,1 --fairness none
//
// Fig. 1(a) of "Finding non-terminating executions in multithreaded programs"
// (MUTANT; mutant-fair-nontermination.txt), "One thread forever spins", with g
// cleared in `init`, before the threads start, instead of by Thread1:
//    var g: B
//    proc Thread1 () g := false; while !g do skip; return
//    proc Thread2 () g := true; return
// Caption: "Though the first thread may execute forever if the second never sets g
// to true, no such execution is fair." In the figure as written (mutant_fig1a.bpl)
// the claim fails with two stem rounds, because Thread2's g := true may come before
// Thread1's g := false. Here g goes from F to T once and never back, and the
// caption's claim holds at every bound; its first half is the livelock that only
// an unfair run has.
//
// Safety: the assertion after the loop is ours: Thread1 leaves its loop only after
// reading g = T, and nothing but init writes F, so it holds at every bound.
//
// Livelock (a loop of rounds that ends in the configuration it started from, with
// at least one step in it):
// - strong fairness, --lasso 1,1, 2,1, 2,2 (and any other bound): no livelock.
//   Thread2 never waits in acquire (there are no locks), so in a fair loop it
//   either takes a step or has terminated. It has no cycle, so after a step of it
//   it can never be back where the loop started: it has terminated before the
//   loop, and g = T from then on. Thread1's only cycle passes the test of !g,
//   which with g = T leaves the loop for good, so Thread1 cannot come back either,
//   and no loop has a step.
// - weak fairness, --lasso 2,2: no livelock, by the same argument: a thread that
//   never waits in acquire is exempt from running only when it has terminated,
//   under weak fairness as under strong.
// - --fairness none, --lasso 0,1 (no stem at all): yes, the run the caption calls
//   unfair. The loop round starts after init (g = F): Thread1 tests !g (T), skips
//   and is back at its test with the same state; Thread2's context is empty,
//   forever, although it is enabled throughout.

decl g;

void init()
begin
  g := F;                       // [7], moved here from Thread1
end

thread void Thread1()
begin
  while (!g) do                 // [8]
    skip;                       // [9]
  od
  assert(g);                    // ours: the loop exits only once g is T
  return;                       // [10]
end

thread void Thread2()
begin
  g := T;                       // [13]
  return;                       // [14]
end
