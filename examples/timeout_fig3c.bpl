// expect: safe -k 2
// expect: livelock --lasso 1,1
// expect: livelock --lasso 0,1
//
// Fig. 3(c) of "Finding non-terminating executions in multithreaded programs"
// (MUTANT; mutant-fair-nontermination.txt), "Modeling timeout", read literally:
//    while e1 do
//      timeout := false;
//      if * and e2 then timeout := true; break
// Section 5: MUTANT "detected non-termination by skipping the then-branch in
// each iteration of the lasso", whereas "the intention of the designers was that
// this branch represents an actual time out reflecting a timer running down to
// zero". Here e1 is !done and e2 is T; the break sets done.
//
// Livelock (any fairness): the waiter declines the choice in every iteration;
// the configuration (waiter at its loop head, done = F, timeout = F) repeats
// every round, and the waiter, the only thread, runs in every round.
// timeout_fig3c_bounded.bpl is the corrected model.
//
// Safety: the assertion after the loop is ours; the loop ends only through the
// branch that sets done.

decl done;

void init()
begin
  done := F;
end

thread void waiter()
begin
  decl timeout;
  while (!done) do
    timeout := F;
    if (*) then
      timeout := T;                 // the timer ran down
      done := T;                    // break
    fi
  od
  assert(done & timeout);
end
