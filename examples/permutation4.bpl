// expect: safe --switches 3
// expect: safe -k 3
//
// Fig. 1 of "Reducing context-bounded concurrent reachability to sequential
// reachability" (La Torre, Madhusudan, Parlato, CAV 2009; lazy-sequentialization-
// cav09.txt): the concurrent program `permutation` with 4 bits. init sets test to F
// and leaves x_1..x_4 unassigned (arbitrary, as in the paper). thread1 sets all bits
// to F and then test to T. thread2 waits for test (`assume(test)`: in the paper it
// "halts if test is false"; a path where thread2 runs too early is dropped), then
// loops forever, nondeterministically swapping x_1 and x_2 or rotating the four
// bits, so over all runs it computes every permutation of the bits. The statement
// labelled Target in the paper (here `error`, one of our default error labels)
// follows the infinite `while (T)` loop and is never reached, at any bound; the
// paper's Table 1 reports "N" for 1, 2 and 3 context switches.
//
// The assertion in the loop is ours: it checks the paper's remark that "the
// reachable state-space at the while-loop has only the valuation x_1..x_4 = F"
// (thread2 passes assume(test) only after thread1 has cleared every bit, and nobody
// sets a bit to T afterwards). It holds at every bound, hence `safe`.
//
// The extracted figure shows the two assignments one after the other in the then
// branch, with no `else`, and the swap as `x_1, x_2, x_3, x_4 := x_2, x_1, x_4, x_3`;
// the text says thread2 chooses "either to swap x_1 and x_2, or to shift the bits
// x_1, ..., x_4 circularly" and computes "all the permutations", which a double swap
// plus a rotation would not give (they generate only 8 of the 24). We follow the
// text. With all bits F the choice changes no verdict.

decl test, x_1, x_2, x_3, x_4;

void init()
begin
  test := F;
  return;
end

thread void thread1()
begin
  x_1, x_2, x_3, x_4 := F, F, F, F;
  test := T;
  return;
end

thread void thread2()
begin
  assume(test);
  while (T) do
    assert(!x_1 & !x_2 & !x_3 & !x_4);
    if (*) then
      x_1, x_2, x_3, x_4 := x_2, x_1, x_3, x_4;   // swap x_1 and x_2
    else
      x_1, x_2, x_3, x_4 := x_2, x_3, x_4, x_1;   // rotate the four bits
    fi
  od
error:                          // the paper's Target
  skip;
  return;
end
