// expect: safe --switches 1
// expect: unsafe --switches 2
// expect: safe -k 1
// expect: unsafe -k 2
// expect: livelock --lasso 1,1
//
// Fig. 1(b) of "Finding non-terminating executions in multithreaded programs"
// (MUTANT; mutant-fair-nontermination.txt), "Both threads can retry forever":
//    var g: B
//    proc Thread1 () while g do g := false; return
//    proc Thread2 () while !g do g := true; return
// g is uninitialised (arbitrary), as in the figure. Caption: "Two threads repeatedly
// trying to validate their set values of g will keep retrying forever under a
// schedule which schedules each loop head just after the opposing thread's
// assignment"; every non-terminating execution repeats lines 7, 8, 12, 13, with one
// context per thread in the stem and one in the lasso.
//
// Livelock, --lasso 1,1 (strongly fair): take g = T initially and an empty stem (or
// a stem round in which both contexts are empty). Lasso round: Thread1 tests g (T),
// sets g := F and is back at its loop head; Thread2 tests !g (T), sets g := T and
// is back at its loop head. The state (both at their loop heads, g = T) repeats
// every round and both threads run in every round: fair.
//
// Safety: the assertion after Thread1's loop is ours. Thread1 leaves the loop having
// read g = F, but Thread2 may set g := T before Thread1's next step (a check-then-act
// race), so the assertion fails with 2 switches:
//   Thread1: test g (F), leaves the loop; Thread2: test !g (T), g := T (switch 1);
//   Thread1: assert(!g) fails (switch 2).
// With -k 2: round 1 Thread1, Thread2; round 2 Thread1. With 1 switch (or -k 1) it
// cannot fail: Thread2's write of T must fall between Thread1's last test and its
// assertion, which needs Thread1 to run both before and after Thread2.

decl g;

thread void Thread1()
begin
  while (g) do                  // [7]
    g := F;                     // [8]
  od
  assert(!g);                   // ours: fails if Thread2 interferes after the test
  return;                       // [9]
end

thread void Thread2()
begin
  while (!g) do                 // [12]
    g := T;                     // [13]
  od
  return;                       // [14]
end
