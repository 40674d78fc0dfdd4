// expect: safe --switches 4 --depth 4
// expect: safe -k 3 --depth 4
//
// Fig. 1 of "K-induction with amplification" (kinduction-with-amplification.txt):
// two threads, both call the recursive function rec_fun, which nondeterministically
// calls itself or returns. Afterwards thread1 tests x and jumps to `error` when x is
// false. x is set to T before any thread runs (the figure's `bool x = true;`, here in
// init) and is never assigned again, so the true branch of `if (!x)` is never taken
// and `error` is unreachable under every schedule, every number of context switches
// and every stack depth. The --depth bound only makes the unbounded recursion of
// rec_fun finite for a bounded checker; the verdict does not depend on it.
//
// The figure's `error: goto error;` is a global line [2]; our labels live inside
// functions, so the label is placed in thread1 after its return, reachable only
// through the `goto error` of line [13].

decl x;

void init()
begin
  x := T;                       // [1] bool x = true;
end

void rec_fun()                  // [4]
begin
  if (*) then                   // [5]
    rec_fun();                  // [6]
  else
    return;                     // [8]
  fi
end

thread void thread1()           // [10]
begin
  rec_fun();                    // [11]
  if (!x) then                  // [12]
    goto error;                 // [13]
  fi
  return;
error:
  goto error;                   // [2]
end

thread void thread2()           // [15]
begin
  rec_fun();                    // [16]
end
