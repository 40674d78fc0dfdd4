// expect: safe --switches 0
// expect: unsafe --switches 1
// expect: unsafe -k 1
//
// Two threads that never end: one flips x, the other asserts it is
// false. With no context switch only one of them runs, and x stays false
// while the watcher runs; one switch from the flipper (after an odd number
// of flips) to the watcher breaks the assertion. Neither verdict is
// within a step bound: executions of any length are covered (the safe
// answer is a proof, the violation a replayed trace).

decl x;

void init()
begin
  x := F;
end

thread void flipper()
begin
  while (T) do
    x := !x;
  od
end

thread void watcher()
begin
  while (T) do
    assert(!x);
  od
end
