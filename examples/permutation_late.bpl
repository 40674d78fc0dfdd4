// expect: unsafe --switches 3
// expect: safe --switches 2
// expect: unsafe -k 2
// expect: safe -k 1
// expect: unsafe --switches 3 --seq product
//
// A late bug in the shape of `permutation` (Fig. 1 of the lazy-sequentialization
// paper, lazy-sequentialization-cav09.txt, and its 16-bit version of section 6; see
// permutation16.bpl): thread2 waits for `test`, then shuffles bits in an endless
// loop, swapping x_1 and x_2 or rotating all ten bits one place up. Here thread1
// does not clear the bits but plants a token (x_1 := T) twice, and the assertion in
// the loop says that x_1 and x_10 never hold tokens at the same time.
//
// Verdicts: shuffling only moves bits, so two tokens exist only when thread1's
// second `x_1 := T` runs after thread2 has moved the first token away from x_1.
// Both tokens are planted on x_1, and a token reaches x_10 only by rotations,
// one place up each (a swap just exchanges x_1 and x_2), so one of them travels
// 9 places before the assertion can fail: nine iterations of the loop at least.
// The shortest violation (45 steps, 3 context switches):
//   thread1: x_1 := T; test := T;
//   ---- switch 1: thread2 passes assume(test), moves the token from x_1 to x_10
//        (one swap and eight rotations, or nine rotations)
//   ---- switch 2: thread1 plants the second token: x_1 := T;
//   ---- switch 3: thread2: assert(!(x_1 & x_10)) fails.
// With 2 switches, thread1 cannot run between two parts of thread2 (running
// thread2 first wastes a switch on an empty context, as it must wait for test),
// so one token is all thread2 ever shuffles: safe. With rounds, the second round
// gives thread1 a context after thread2's first one and thread2 a context after
// that: unsafe at -k 2; safe at -k 1, where thread1 plants both tokens (on x_1,
// one token) before thread2 starts.
//
// Why it is here: the violation lies beyond 50 steps of the sequential program
// that bmc's eager sequentialization builds for 3 context switches (72 steps:
// each loop iteration is several steps of each thread's run). `bmc check --seq
// eager --switches 3 --max-steps 50` therefore does not find it, and the default
// step bound, which the user did not state, must not turn that into "safe";
// `--max-steps 100` finds it, and the explicit engine does in milliseconds.

decl test, x_1, x_2, x_3, x_4, x_5, x_6, x_7, x_8, x_9, x_10;

void init()
begin
  test := F;
  x_1, x_2, x_3, x_4, x_5, x_6, x_7, x_8, x_9, x_10 := F, F, F, F, F, F, F, F, F, F;
end

thread void thread1()
begin
  x_1 := T;                     // the first token
  test := T;
  x_1 := T;                     // the second token, if the first has moved on
end

thread void thread2()
begin
  assume(test);
  while (T) do
    assert(!(x_1 & x_10));
    if (*) then
      // swap x_1 and x_2
      x_1, x_2, x_3, x_4, x_5, x_6, x_7, x_8, x_9, x_10
        := x_2, x_1, x_3, x_4, x_5, x_6, x_7, x_8, x_9, x_10;
    else
      // rotate the 10 bits one place up
      x_1, x_2, x_3, x_4, x_5, x_6, x_7, x_8, x_9, x_10
        := x_10, x_1, x_2, x_3, x_4, x_5, x_6, x_7, x_8, x_9;
    fi
  od
end
