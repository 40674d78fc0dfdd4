// expect: safe -k 3
// expect: safe --switches 5
// expect: safe -k 3 --seq product
//
// Lamport's fast mutual exclusion algorithm (L. Lamport, "A fast mutual
// exclusion algorithm", ACM TOCS 5(1), 1987, Fig. 2) for two processes with
// ids 1 and 2; Getafix and Moped users compare BDD tools on such protocols
// (bmc compare). Shared: x (the id of the last process to announce itself), y
// (0 while the fast path is free, else the id of the process on it), both as
// two bits, and b1, b2 (process i wants to enter). Without contention a
// process enters after a constant number of steps (x := i; y = 0; y := i;
// x = i); with contention it falls back to waiting for the other's b and for
// y = 0. In the critical section a process raises its own cs flag and asserts
// that the other one's is down. Each process enters twice.
//
// Why safe (Lamport's proof, under our sequentially consistent interleaving):
// a process enters either on the fast path, having seen x = i after writing
// y := i, or on the slow path, having seen y = i after waiting for the
// other's b to fall; y := i is written only when y was seen 0, and the last
// writer of y before both entries would have to see its own id in x or y,
// which the other's later write contradicts.

decl x1, x0;                    // x, in binary: 0, 1 (F, T) or 2 (T, F)
decl y1, y0;                    // y, likewise
decl b1, b2;
decl cs1, cs2;                  // ghost: process i is in its critical section

void init()
begin
  x1, x0, y1, y0 := F, F, F, F;
  b1, b2 := F, F;
  cs1, cs2 := F, F;
end

thread void p1()
begin
  decl again;
  again := T;
  while (T) do
  start:
    b1 := T;
    x1, x0 := F, T;             // x := 1
    if (y1 | y0) then           // y != 0: someone is on the fast path
      b1 := F;
      while (y1 | y0) do        // await y = 0
        skip;
      od
      goto start;
    fi
    y1, y0 := F, T;             // y := 1
    if (x1 | !x0) then          // x != 1: contention
      b1 := F;
      while (b2) do             // await !b2
        skip;
      od
      if (y1 | !y0) then        // y != 1: the other one won
        while (y1 | y0) do      // await y = 0
          skip;
        od
        goto start;
      fi
    fi
    cs1 := T;                   // critical section
    assert(!cs2);
    cs1 := F;
    y1, y0 := F, F;             // y := 0
    b1 := F;
    if (!again) then
      return;
    fi
    again := F;
  od
end

thread void p2()
begin
  decl again;
  again := T;
  while (T) do
  start:
    b2 := T;
    x1, x0 := T, F;             // x := 2
    if (y1 | y0) then           // y != 0
      b2 := F;
      while (y1 | y0) do        // await y = 0
        skip;
      od
      goto start;
    fi
    y1, y0 := T, F;             // y := 2
    if (!x1 | x0) then          // x != 2: contention
      b2 := F;
      while (b1) do             // await !b1
        skip;
      od
      if (!y1 | y0) then        // y != 2: the other one won
        while (y1 | y0) do      // await y = 0
          skip;
        od
        goto start;
      fi
    fi
    cs2 := T;                   // critical section
    assert(!cs1);
    cs2 := F;
    y1, y0 := F, F;             // y := 0
    b2 := F;
    if (!again) then
      return;
    fi
    again := F;
  od
end
