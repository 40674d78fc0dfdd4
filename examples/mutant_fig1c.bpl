// expect: safe --switches 6
// expect: safe -k 4
// expect: livelock --lasso 1,1
// expect: livelock --lasso 1,2
//
// Fig. 1(c) of "Finding non-terminating executions in multithreaded programs"
// (MUTANT; mutant-fair-nontermination.txt), "The second thread can forever retry":
//    var g: T; var x: B (a lock)
//    proc Thread1 () while * do acquire x; g := *; release x; return
//    proc Thread2 () var gi, gf: T
//      while true do
//        gi := g; gf := ...; acquire x;
//        if g = gi then g := gf; release x; return else release x
//      return
// Caption: "As long as the first thread executes an iteration between each of the
// second thread's reads and validations of g, the second thread is never able to
// finish its operation." Here g has one bit (the abstraction of T), gf := ... is
// gf := *, and the lock x is our `lock x`.
//
// Safety: the assertion after `g := gf` is ours and checks that the lock protects
// g: Thread2 holds x from its validation to its release, and Thread1 writes g only
// while holding x, so g = gf holds there at every bound.
//
// Livelock (strong fairness):
// - --lasso 1,1: yes. The simplest fair lasso has Thread2 finish in the stem
//   (round 1: read, validate, write, return) and Thread1 loop alone: each lasso
//   round it chooses `*` = T, acquires x, rewrites g with its current value and
//   releases x, back at its loop head with the same state. Thread2 has terminated,
//   so the run is fair (nondeterministic choices are not subject to fairness;
//   MUTANT reports the same kind of lasso for Fig. 3(c)).
// - --lasso 1,2: yes, also the livelock the caption describes, where Thread2
//   retries forever. Stem, round 1: Thread1 empty; Thread2 reads gi := g = v,
//   picks gf, stops before `acquire x`. Each lasso round: Thread1 does one iteration
//   with g := !v; Thread2 acquires x, sees g != gi, releases x, reads gi := g and
//   picks gf again, stopping before `acquire x`. g flips each round, so the state
//   (including Thread2's local gi) repeats after 2 rounds: with a one-bit g this
//   lasso needs k2 = 2 (with any domain, g must change every round, so one round
//   never brings the state back). Both threads run every round: fair.

decl g;
lock x;

thread void Thread1()
begin
  while (*) do                  // [5]
    acquire(x);                 // [6]
    g := *;                     // [7]
    release(x);                 // [8]
  od
  return;                       // [9]
end

thread void Thread2()
begin
  decl gi, gf;                  // [11]
  while (T) do                  // [12]
    gi := g;                    // [13]
    gf := *;                    // [14] gf := ...
    acquire(x);                 // [15]
    if (g = gi) then            // [16]
      g := gf;                  // [17]
      assert(g = gf);           // ours: x protects g
      release(x);               // [18]
      return;                   // [19]
    else                        // [20]
      release(x);               // [21]
    fi
  od
  return;                       // [22]
end
