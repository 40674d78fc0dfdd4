// expect: safe --switches 6
// expect: safe -k 4
// expect: livelock --lasso 1,1
//
// Fig. 3(a) of "Finding non-terminating executions in multithreaded programs"
// (MUTANT; mutant-fair-nontermination.txt): TryLock dining philosophers, here with
// N = 3 philosophers phil0, phil1, phil2 and forks (locks) f0, f1, f2; philosopher
// n has left fork f_n and right fork f_(n+1 mod 3):
//    while true do
//      if TryLock(left) then
//        if TryLock(right) then break else ReleaseLock(left)
//    (eat) ReleaseLock(right); ReleaseLock(left); return
// The figure's `break` is `goto eat;`.
//
// Safety: the eating flags e0, e1, e2 and the assertion are ours. A philosopher eats
// while holding both its forks; with 3 philosophers every two of them share a fork,
// so no two can eat at once and the assertion holds at every bound (locks are owned
// and tryacquire never takes a held lock).
//
// Livelock, --lasso 1,1 (strongly fair; the paper: "a fair non-terminating
// execution for each N >= 2 ... where each philosopher first acquires their left
// lock, then upon seeing their right lock unavailable, they release their left
// lock", found by MUTANT with K = 2, one context per thread in stem and lasso).
// Stem, round 1: phil0 takes f0, phil1 takes f1, phil2 takes f2, each stopping just
// before trying its right fork. Lasso round: phil0 fails to take f1 (held by
// phil1), releases f0, loops and takes f0 again, stopping before trying f1; phil1
// and phil2 do the same with f2 and f0. The state at the end of the round equals
// the state at its start, and every philosopher runs in every round: fair.

lock f0, f1, f2;
decl e0, e1, e2;                // ghost: philosopher n is eating

void init()
begin
  e0, e1, e2 := F, F, F;
end

thread void phil0()
begin
  decl l, r;
  while (T) do
    l := tryacquire(f0);        // left
    if (l) then
      r := tryacquire(f1);      // right
      if (r) then
        goto eat;               // break
      else
        release(f0);
      fi
    fi
  od
eat:
  e0 := T;
  assert(!e1 & !e2);
  e0 := F;
  release(f1);
  release(f0);
end

thread void phil1()
begin
  decl l, r;
  while (T) do
    l := tryacquire(f1);        // left
    if (l) then
      r := tryacquire(f2);      // right
      if (r) then
        goto eat;               // break
      else
        release(f1);
      fi
    fi
  od
eat:
  e1 := T;
  assert(!e0 & !e2);
  e1 := F;
  release(f2);
  release(f1);
end

thread void phil2()
begin
  decl l, r;
  while (T) do
    l := tryacquire(f2);        // left
    if (l) then
      r := tryacquire(f0);      // right
      if (r) then
        goto eat;               // break
      else
        release(f2);
      fi
    fi
  od
eat:
  e2 := T;
  assert(!e0 & !e1);
  e2 := F;
  release(f0);
  release(f2);
end
