// expect: safe --switches 8
// expect: safe -k 5
//
// Peterson's mutual exclusion algorithm for two threads, each entering the
// critical section once ("petersons" of the Fig. 12 Sync benchmarks in
// kinduction-with-amplification.txt; examples/peterson.bpl is the loop,
// "petersons_loop"). Shared: flag0, flag1 (thread i wants to enter) and turn (T:
// it is thread 1's turn, F: thread 0's turn). In the critical section a thread
// raises its own cs flag and asserts that the other one's is down, so the
// assertion fails exactly when both threads are in the critical section together;
// examples/peterson.bpl argues why that never happens.

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
  flag0 := T;
  turn := T;                    // give priority to thread 1
  while (flag1 & turn) do
    skip;
  od
  cs0 := T;                     // critical section
  assert(!cs1);
  cs0 := F;
  flag0 := F;
end

thread void p1()
begin
  flag1 := T;
  turn := F;                    // give priority to thread 0
  while (flag0 & !turn) do
    skip;
  od
  cs1 := T;                     // critical section
  assert(!cs0);
  cs1 := F;
  flag1 := F;
end
