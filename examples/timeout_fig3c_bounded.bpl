// expect: safe -k 2
// expect: no-livelock --lasso 1,1
// expect: no-livelock --lasso 1,3
// expect: no-livelock --lasso 1,3 --fairness none
//
// Fig. 3(c) of "Finding non-terminating executions in multithreaded programs"
// (MUTANT; mutant-fair-nontermination.txt) with the paper's correction: "ensuring
// that the above choice must evaluate to true at least once within the lasso".
// timeout_fig3c.bpl is the literal model, which has a livelock.
//
// How a fairness assumption on a choice is written (docs/USAGE.md, "Finding
// livelocks"): a livelock repeats a configuration, so a choice that may be
// declined only a bounded number of times in a row (here once, counted in the
// local declined) cannot be declined in every iteration of a loop that closes:
// declining twice is impossible, and declining once leaves declined = T, which
// only taking the choice resets. So every repeating loop takes the timeout at
// least once, and taking it ends the loop: no livelock, under any fairness.
//
// Safety: the assertion after the loop is ours, as in timeout_fig3c.bpl.

decl done;

void init()
begin
  done := F;
end

thread void waiter()
begin
  decl timeout, declined;
  declined := F;
  while (!done) do
    timeout := F;
    if (* & !declined) then
      declined := T;                // the timer has not run down yet
    else
      declined := F;
      timeout := T;                 // the timer ran down
      done := T;                    // break
    fi
  od
  assert(done & timeout);
end
