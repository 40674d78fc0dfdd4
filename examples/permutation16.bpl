// expect: safe --switches 3
// expect: safe -k 3
//
// The 16-bit version of `permutation` (Fig. 1 of the lazy-sequentialization paper,
// lazy-sequentialization-cav09.txt; section 6 and Table 1 use this 16-bit version:
// "Initially, only thread1 can evolve as thread2 is blocked on its first statement.
// thread1 sets all 16-bits to false and, before returning, sets test to true. Now,
// thread2 can take over and goes into an infinite loop in which the bits are
// shuffled"; Table 1 reports the target unreachable ("N") for 1, 2 and 3 context
// switches). See permutation4.bpl for the 4-bit figure and the reading of the swap.
//
// Verdicts: the label `error` (the paper's Target) follows the infinite `while (T)`
// loop and is never reached; our assertion that every bit is F inside the loop
// holds because thread2 passes `assume(test)` only after thread1 has cleared all 16
// bits and no statement sets a bit to T. Safe at every bound.
//
// Difference from the paper: init also sets x_1..x_16 to F (the paper leaves them
// unassigned). This keeps the program explicit-state friendly (one initial state
// instead of 2^16) and changes no verdict, since thread2 cannot pass assume(test)
// before thread1 overwrites the bits. The eager-vs-lazy contrast of the paper (an
// eager translation guesses arbitrary bit values) is shown by permutation4.bpl,
// which keeps the bits unassigned.

decl test,
  x_1, x_2, x_3, x_4, x_5, x_6, x_7, x_8, x_9, x_10, x_11, x_12, x_13, x_14, x_15, x_16;

void init()
begin
  test := F;
  x_1, x_2, x_3, x_4, x_5, x_6, x_7, x_8, x_9, x_10, x_11, x_12, x_13, x_14, x_15, x_16
    := F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F;
  return;
end

thread void thread1()
begin
  x_1, x_2, x_3, x_4, x_5, x_6, x_7, x_8, x_9, x_10, x_11, x_12, x_13, x_14, x_15, x_16
    := F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F;
  test := T;
  return;
end

thread void thread2()
begin
  assume(test);
  while (T) do
    assert(!x_1 & !x_2 & !x_3 & !x_4 & !x_5 & !x_6 & !x_7 & !x_8
         & !x_9 & !x_10 & !x_11 & !x_12 & !x_13 & !x_14 & !x_15 & !x_16);
    if (*) then
      // swap x_1 and x_2
      x_1, x_2, x_3, x_4, x_5, x_6, x_7, x_8, x_9, x_10, x_11, x_12, x_13, x_14, x_15, x_16
        := x_2, x_1, x_3, x_4, x_5, x_6, x_7, x_8, x_9, x_10, x_11, x_12, x_13, x_14, x_15, x_16;
    else
      // rotate the 16 bits
      x_1, x_2, x_3, x_4, x_5, x_6, x_7, x_8, x_9, x_10, x_11, x_12, x_13, x_14, x_15, x_16
        := x_2, x_3, x_4, x_5, x_6, x_7, x_8, x_9, x_10, x_11, x_12, x_13, x_14, x_15, x_16, x_1;
    fi
  od
error:                          // the paper's Target
  skip;
  return;
end
