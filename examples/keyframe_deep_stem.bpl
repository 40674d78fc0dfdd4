// expect: livelock --lasso 1,1
// expect: livelock --lasso 1,1 --fairness weak
// expect: no-livelock --lasso 0,1
// expect: livelock --lasso 1,1 --engine summaries
// expect: depth-bound --lasso 1,1 --depth 16
// expect: safe -k 1 --depth 24
// expect: unsafe -k 2 --depth 24
//
// Ours: the keyframe lasso of examples/mutant_fig1b_recursive.bpl (MUTANT,
// mutant-fair-nontermination, section 3.3) below a deep stack. Thread1 first
// counts down from 20 by recursive calls of down (a 5-bit parameter, one frame
// per step), and only at the bottom enters retry, its loop `while g do g := F`
// written as a recursive call; Thread2 sets g := T whenever it finds g false.
//
// Livelock, --lasso 1,1 (strongly or weakly fair): in the stem round Thread1
// descends through down 20 times and calls retry (its stack: Thread1, 21 frames
// of down, retry: 23 frames); Thread2's context is empty. In the loop round
// Thread1 tests g (T initially), sets g := F and calls retry again, one frame
// deeper at the same statement; Thread2 tests !g and sets g := T, back at its
// loop head. The round repeats forever, each time one frame deeper, and both
// threads step in it. The stem alone needs 23 frames, more than the default
// call depth of 16: without --depth the question is about every depth, and the
// livelock is found; with --depth 16 stated, no execution within it has one,
// and some execution goes deeper (exit 3). With --lasso 0,1 there is none, as
// in mutant_fig1b_recursive.bpl: the loop would start with Thread1 at its first
// statement, which it never comes back to.
//
// Safety: as in mutant_fig1b_recursive.bpl, Thread1 asserts !g after its
// retries; Thread2 may set g := T in between: unsafe with 2 rounds (Thread1
// reads g = F and returns through its 23 frames, Thread2 sets g, Thread1
// asserts; --depth 24 leaves room for them), safe with 1 (Thread2's only context comes after Thread1's, and
// Thread1 ends its retries with g = F only after Thread2 has run).

decl g;

void init()
begin
  g := T;
end

thread void Thread1()
begin
  down(T, F, T, F, F);          // 20
  assert(!g);                   // ours: fails if Thread2 interferes after the test
end

// down(n) calls down(n - 1) until n = 0, then retry: n + 1 frames of down.
void down(n4, n3, n2, n1, n0)
begin
  if (!n4 & !n3 & !n2 & !n1 & !n0) then
    retry();
  else
    // n - 1: bit i flips when the bits below it are all 0.
    down(n4 ^ (!n3 & !n2 & !n1 & !n0), n3 ^ (!n2 & !n1 & !n0), n2 ^ (!n1 & !n0), n1 ^ !n0, !n0);
  fi
end

// retry is Thread1's loop `while g do g := F`, written as a recursive call.
void retry()
begin
  if (g) then
    g := F;
    retry();
  fi
end

thread void Thread2()
begin
  while (!g) do
    g := T;
  od
end
