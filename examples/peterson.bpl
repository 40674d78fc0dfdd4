// expect: safe --switches 8
// expect: safe -k 5
// expect: safe --switches 8 --seq product
//
// Peterson's mutual exclusion algorithm for two threads (G. L. Peterson, "Myths
// about the mutual exclusion problem", IPL 1981; the paper kinduction-with-
// amplification.txt lists "petersons" and "petersons_loop" in its Fig. 12 Sync
// benchmarks). Shared: flag0, flag1 (thread i wants to enter) and turn (T: it is
// thread 1's turn, F: thread 0's turn). Each thread enters the critical section
// twice (the local `again` bounds the outer loop). In the critical section a thread
// raises its own cs flag and asserts that the other one's is down, so the assertion
// fails exactly when both threads are in the critical section together.
//
// Why safe (at every bound, under our sequentially consistent interleaving): thread
// i enters only if the other's flag is down or turn favours i. If both were inside,
// each set its flag before its turn write and kept it up; the one that wrote turn
// last, say thread 0 (turn := T), then saw flag1 up and turn = T (nobody changes turn
// after thread 1's earlier write), so it could not have left its wait loop.

decl flag0, flag1, turn;
decl cs0, cs1;                  // ghost: thread i is in its critical section

void init()
begin
  flag0, flag1 := F, F;
  cs0, cs1 := F, F;
  turn := *;                    // any initial turn
end

thread void p0()
begin
  decl again;
  again := T;
  while (T) do
    flag0 := T;
    turn := T;                  // give priority to thread 1
    while (flag1 & turn) do
      skip;
    od
    cs0 := T;                   // critical section
    assert(!cs1);
    cs0 := F;
    flag0 := F;
    if (!again) then
      return;
    fi
    again := F;
  od
end

thread void p1()
begin
  decl again;
  again := T;
  while (T) do
    flag1 := T;
    turn := F;                  // give priority to thread 0
    while (flag0 & !turn) do
      skip;
    od
    cs1 := T;                   // critical section
    assert(!cs0);
    cs1 := F;
    flag1 := F;
    if (!again) then
      return;
    fi
    again := F;
  od
end
