// expect: safe -k 3
// expect: safe --switches 4
// expect: no-livelock --lasso 1,1
// expect: livelock --lasso 2,1
//
// Fig. 1(a) of "Finding non-terminating executions in multithreaded programs"
// (MUTANT; mutant-fair-nontermination.txt), "One thread forever spins":
//    var g: B
//    proc Thread1 () g := false; while !g do skip; return
//    proc Thread2 () g := true; return
// Caption: "Though the first thread may execute forever if the second never sets g
// to true, no such execution is fair." Section 5: MUTANT "does not falsely detect
// nonterminating executions in the program of Figure 1a"; section 1: the executions
// of Fig. 1 need "two contexts per thread: one per stem, and one per lasso".
//
// Safety: the assertion after the loop is ours: Thread1 leaves its loop only after
// reading g = T, and nothing sets g back to F afterwards (Thread1's only write of F
// precedes its loop), so it holds at every bound.
//
// Livelock (strong fairness, round-robin rounds in order Thread1, Thread2):
// - --lasso 1,1 (the paper's K = 2): no fair lasso. Thread2 must have terminated
//   before the lasso (otherwise it is enabled, must run in the lasso and its
//   g := T ends the repetition), so it ran in round 1, after Thread1's context of
//   that round. If Thread1's round-1 context was empty, the lasso starts at
//   Thread1's entry and can never return there. Otherwise Thread1 wrote g := F
//   before Thread2's g := T, and in the lasso it reads g = T and terminates.
// - --lasso 2,1: a fair livelock exists, one the caption overlooks. Round 1:
//   Thread1's context is empty, Thread2 sets g := T and terminates. Round 2 (end of
//   the stem): Thread1 sets g := F and enters its loop. Lasso: Thread1 spins
//   (test !g, skip) forever; Thread2 has terminated, so the run is fair. The
//   paper's claim is right only for the schedules in which Thread1's g := false
//   comes first; the stem bound 1 excludes the others.

decl g;

thread void Thread1()
begin
  g := F;                       // [7]
  while (!g) do                 // [8]
    skip;                       // [9]
  od
  assert(g);                    // ours: the loop exits only once g is T
  return;                       // [10]
end

thread void Thread2()
begin
  g := T;                       // [13]
  return;                       // [14]
end
