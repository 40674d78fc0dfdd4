// expect: safe -k 3
// expect: safe --switches 4
// expect: no-livelock --lasso 1,1
// expect: no-livelock --lasso 2,2
// expect: no-livelock --lasso 2,2 --fairness none
//
// Ours: the recursive retry of examples/mutant_fig1b_recursive.bpl, where the
// other thread gives up. Thread1 retries by a recursive call while g holds;
// Thread2 sets g := T at most twice, and only when it finds g false, then ends.
// Every retry of Thread1 after the first needs a write of Thread2 to come back
// to, so Thread1's stack holds at most five frames (its own and four of retry)
// and every execution ends: there is no
// livelock at any bound, fair or not (a loop needs a step, and no configuration
// of a run that ends comes back). Unlike the keyframe lasso of
// mutant_fig1b_recursive.bpl, no execution makes Thread1's stack grow for ever,
// and as none reaches the call depth, "no livelock" covers every execution
// within the bounds.
//
// Safety: Thread1 asserts, after its retries, that it has written g false last
// unless Thread2 wrote after it; the ghost flag w says who wrote last. It holds
// at every bound.

decl g, w;                      // w: Thread2 wrote g last (ghost)

void init()
begin
  w := F;
end

thread void Thread1()
begin
  retry();
  assert(!g | w);
  return;
end

void retry()
begin
  if (g) then
    g, w := F, F;
    retry();
  fi
  return;
end

thread void Thread2()
begin
  if (!g) then
    g, w := T, T;
  fi
  if (!g) then
    g, w := T, T;
  fi
  return;
end
