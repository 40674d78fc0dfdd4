// expect: unsafe -k 1
// expect: unsafe --switches 0
// expect: no-livelock --lasso 1,1 --engine auto
// expect: no-livelock --lasso 1,1 --engine summaries
// expect: no-livelock --lasso 1,1 --fairness weak --engine auto
// expect: depth-bound --lasso 1,1 --engine explicit
// expect: livelock --lasso 1,1 --fairness none
//
// Ours: a recursion that only fairness stops, so that "no livelock" needs
// every call depth. Worker dives by calling dive while stop is false and a
// choice says so, then returns all the way and ends; Stopper sets stop once
// and ends. Within one context Worker can dive to any depth, so the explicit
// search reaches every depth bound (--engine explicit: unknown, depth bound
// reached at call depth 64).
//
// No livelock with fairness (--lasso 1,1, strong or weak): a loop that
// repeats forever needs Stopper to have set stop in the stem (enabled and
// idle through the loop would be unfair, and its step would change stop, so
// the loop would not come back); then Worker can only return, and a loop that
// only returns is not repeatable (its stack would shrink without end). The
// lasso translation with keyframes (mutant-fair-nontermination, section 3.3),
// decided by summaries, proves it at every call depth.
//
// Without fairness (--fairness none) Stopper may stay idle for ever, and
// Worker diving one frame deeper each round is a keyframe lasso.
//
// Safety: Worker's ERROR label marks a return from its dive before Stopper
// has run, which one context of Worker's reaches (-k 1, --switches 0).

decl stop;

void init()
begin
  stop := F;
end

thread void Worker()
begin
  dive();
  if (!stop) then
    ERROR: skip;
  fi
  return;
end

void dive()
begin
  if (!stop) then
    if (*) then
      dive();
    fi
  fi
  return;
end

thread void Stopper()
begin
  stop := T;
  return;
end
