// expect: safe -k 3
// expect: safe --switches 4
// expect: no-livelock --lasso 0,1
// expect: livelock --lasso 1,1
// expect: livelock --lasso 1,1 --fairness weak
//
// Ours: a lock protocol whose retry is a recursive call. Each thread needs both
// locks a and b and takes them with tryacquire, which never blocks; when it gets
// the first but not the second it gives the first back and tries once more by
// calling itself (grabAB(F) from grabAB(T)), and when that fails too it returns F
// to its loop, which starts over. The threads take the locks in opposite orders,
// as the TryLock philosophers of Fig. 3(a) of "Finding non-terminating executions
// in multithreaded programs" (MUTANT; mutant-fair-nontermination.txt) take their
// forks, so each can keep taking its first lock while the other holds its own.
//
// Safety: the ghost flags ca, cb and the assertions are ours and check that the
// two critical sections exclude each other; they hold at every bound.
//
// Livelock (a loop of rounds that ends in the configuration it started from, every
// thread's stack included, with at least one step in it):
// - --lasso 0,1: none. The loop's one round starts after init, with both locks
//   free and both threads at their first statement, and must end there. Each
//   thread's context in it would have to come back to that point, and a thread
//   that has started cannot return to it (only to its loop head); so every
//   context is empty and the loop has no step.
// - --lasso 1,1 (strong and weak fairness alike: no thread is ever blocked, so
//   both must step in the loop): yes. In the stem round right takes b and keeps
//   it. In the loop round left, holding a at the start, fails on b, gives a back,
//   retries by the recursive call (the stack grows by a frame), fails again,
//   returns F through both frames to its loop, starts over and stands holding a
//   again; then right fails on a the same way and ends holding b. Every variable,
//   lock holder and stack is as at the start of the round.
// - The recursion is bounded by the argument (grabAB(F) does not call again), but
//   not syntactically: the lasso translation inlines calls to depth 2, 4, 8 and 16
//   (--depth); the livelock needs depth 3 and is found at 4. Where the translation
//   finds none with the recursion cut at --depth, the explicit search decides
//   whether any execution within the bounds goes that deep (here none does).

lock a, b;
decl ca, cb;                    // ghost: the thread is in its critical section

void init()
begin
  ca, cb := F, F;
end

thread void left()
begin
  decl ok;
  ok := F;
  while (!ok) do
    ok := grabAB(T);
  od
  ca := T;
  assert(!cb);
  ca := F;
  release(b);
  release(a);
end

// grabAB takes a, then b; it returns T holding both, or F holding neither
// after one more try (by calling itself) if more.
bool grabAB(more)
begin
  decl got;
  got := tryacquire(a);
  if (got) then
    got := tryacquire(b);
    if (got) then
      return T;
    fi
    release(a);
  fi
  if (more) then
    got := grabAB(F);
    return got;
  fi
  return F;
end

// grabBA is grabAB with the locks the other way round.
bool grabBA(more)
begin
  decl got;
  got := tryacquire(b);
  if (got) then
    got := tryacquire(a);
    if (got) then
      return T;
    fi
    release(b);
  fi
  if (more) then
    got := grabBA(F);
    return got;
  fi
  return F;
end

thread void right()
begin
  decl ok;
  ok := F;
  while (!ok) do
    ok := grabBA(T);
  od
  cb := T;
  assert(!ca);
  cb := F;
  release(a);
  release(b);
end
