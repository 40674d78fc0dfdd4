// expect: safe -k 3
// expect: safe --switches 4
// expect: no-livelock --lasso 1,1
// expect: no-livelock --lasso 2,2
// expect: livelock --lasso 0,1 --fairness weak
// expect: livelock --lasso 0,1 --fairness none
//
// Ours: a lock handoff that is free of livelocks under strong fairness but not
// under weak fairness, the difference of section 3.4 of "Finding non-terminating
// executions in multithreaded programs" (MUTANT; mutant-fair-nontermination.txt):
// a thread that does not run in the lasso must be blocked on a lock that is held
// throughout the lasso (strong fairness: "the lock x may not be released during
// the lasso by any thread", Cond. 1) or, for weak fairness, only "at some point
// during the lasso". The worker polls the flag done under the lock m, taking and
// freeing m in every iteration; the stopper needs m once, to set done.
//
// Safety: the ghost flags w, s and the assertions are ours and check that m
// protects the two critical sections: each thread sets its flag only while holding
// m and clears it before releasing m, so the assertions hold at every bound.
//
// Livelock (a loop of rounds that ends in the configuration it started from, with
// at least one step in it):
// - strong fairness, --lasso 1,1 and 2,2 (and any other bound): no livelock. The
//   stopper has no cycle, so it cannot take a step in the loop; it has terminated
//   (then done = T, the worker's next test leaves its loop, and the worker, with no
//   other cycle, cannot come back either) or it waits at acquire(m) throughout the
//   loop. Only the worker can take the steps of the loop, and its only cycle
//   releases m, so m is not held throughout the loop: the stopper would be enabled
//   infinitely often without running.
// - weak fairness, --lasso 0,1 (no stem needed): yes, the stopper starves. The loop
//   round starts after init (done = F, m free): the worker tests !done (T), takes
//   m, enters and leaves its critical section, releases m and is back at its test
//   with the same state; the stopper's context comes after that and is empty. It
//   waits at acquire(m) at every configuration of the loop, and m is held at some
//   of them (inside the worker's critical section), so the stopper is not enabled
//   continuously and weak fairness does not require it to run.
// - --fairness none, --lasso 0,1: yes, the same loop.

decl done, w, s;                // w, s: ghost, the worker / the stopper holds m
lock m;

void init()
begin
  done, w, s := F, F, F;
end

thread void worker()
begin
  while (!done) do
    acquire(m);
    w := T;
    assert(!s);                 // ours: m protects the critical sections
    w := F;
    release(m);
  od
end

thread void stopper()
begin
  acquire(m);
  s := T;
  assert(!w);                   // ours
  done := T;
  s := F;
  release(m);
end
