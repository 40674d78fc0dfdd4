// expect: safe -k 3
// expect: safe --switches 4
// expect: no-livelock --lasso 1,1
// expect: no-livelock --lasso 2,2
// expect: no-livelock --lasso 2,2 --fairness weak
// expect: no-livelock --lasso 0,1 --fairness none
// expect: livelock --lasso 1,1 --fairness none
//
// Ours: a small lock protocol without livelocks under strong or weak fairness,
// whose only non-terminating runs are the unfair ones that "Finding
// non-terminating executions in multithreaded programs" (MUTANT;
// mutant-fair-nontermination.txt), section 5, says MUTANT correctly does not
// report for Fig. 3(a): "one philosopher acquires a lock and ceases to participate
// further, while the others continuously spin". Two threads enter a critical
// section once each, guarded by the lock m: the blocker with a blocking acquire,
// the poller by retrying tryacquire until it gets m. Unlike in
// lock_handoff_weak.bpl, the thread that loops never takes the lock that the
// other one waits for.
//
// Safety: the ghost flags c0, c1 and the assertions are ours and check mutual
// exclusion: each thread sets its flag only while holding m and clears it before
// releasing m (and tryacquire never takes a held lock), so they hold at every
// bound.
//
// Livelock (a loop of rounds that ends in the configuration it started from, with
// at least one step in it):
// - strong fairness, --lasso 1,1 and 2,2, and weak fairness, --lasso 2,2 (and any
//   other bound): no livelock. The blocker has no cycle, so it takes no step in the
//   loop; the program's only cycle is the poller's retry, so the poller takes
//   steps, and every retry finds m held. The poller holds m only in its critical
//   section, which it cannot have entered (it would have no cycle left), so the
//   blocker holds m, in its critical section: it is enabled at every configuration
//   of the loop, not waiting in acquire and not terminated, yet never runs. That is
//   unfair even weakly: a thread that is continuously enabled must run.
// - --fairness none, --lasso 0,1: no livelock. The loop starts right after init,
//   with m free. The poller runs first in the round, while the blocker still holds
//   nothing, so it never finds m held and never retries; the blocker has no cycle.
//   So no thread can come back to where the loop started.
// - --fairness none, --lasso 1,1: yes. Stem round: the poller's context is empty,
//   the blocker takes m and stops inside its critical section. Loop round: the
//   poller tests the loop condition, fails to take m (ok = F, as its initial
//   arbitrary value was) and is back at its test with the same state; the blocker's
//   context is empty, forever, although it is enabled throughout.

decl c0, c1;                    // ghost: the blocker / the poller holds m
lock m;

void init()
begin
  c0, c1 := F, F;
end

thread void poller()
begin
  decl ok;
  while (T) do
    ok := tryacquire(m);
    if (ok) then
      goto cs;
    fi
  od
cs:
  c1 := T;
  assert(!c0);                  // ours: mutual exclusion
  c1 := F;
  release(m);
end

thread void blocker()
begin
  acquire(m);
  c0 := T;
  assert(!c1);                  // ours
  c0 := F;
  release(m);
end
