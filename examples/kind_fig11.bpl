// expect: safe --switches 4 --depth 3
// expect: safe -k 4 --depth 3
//
// Fig. 11 of "K-induction with amplification" (kinduction-with-amplification.txt),
// the program that K-induction with amplification cannot prove. Two threads, with
// entry functions thread1 and main2. thread1 recurses an arbitrary number of times
// (lines [5]-[6]), and then each activation busy-waits while x is true and sets x
// to true; thread2, called by main2, recurses likewise and each activation waits
// while x is false and sets x to false. So the returns of the two threads alternate
// through x. `error` is unreachable: main2 sets y to F before calling thread2 and no
// statement ever sets y to T, so the test `y = T` at line [18] always fails, under
// every schedule and at every stack depth (the --depth bound only keeps the
// recursion finite). x and y are uninitialised as in the figure; in our semantics
// they start arbitrary (C would start them false), which only adds behaviours.
//
// thread1 is both the thread entry function and the recursive function, exactly as
// in the figure (a thread entry function may be called like any other function).
// thread2 is an ordinary function despite its name: as soon as some function carries
// the `thread` keyword, only those functions are threads (LANGUAGE.md), so the
// threads are thread1 and main2, in that order.
// The figure's global `error: goto error;` (line [3]) is placed in main2, after its
// return, reachable only through the `goto error` of line [18].

decl x, y;                      // [1] bool x; [2] bool y;

thread void thread1()           // [4]
begin
  if (*) then                   // [5]
    thread1();                  // [6]
  fi
  while (x) do                  // [7] while (x == true) {}
    skip;
  od
  x := T;                       // [8]
end

void thread2()                  // [10]
begin
  if (*) then                   // [11]
    thread2();                  // [12]
  fi
  while (!x) do                 // [13] while (x == false) {}
    skip;
  od
  x := F;                       // [14]
end

thread void main2()             // [15]
begin
  y := F;                       // [16]
  thread2();                    // [17]
  if (y) then                   // [18]
    goto error;
  fi
  return;
error:
  goto error;                   // [3]
end
