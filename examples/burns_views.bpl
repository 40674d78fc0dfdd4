// expect: safe -k 3
// expect: safe --switches 6
// expect: safe -k 3 --engine explicit
//
// Burns' one-bit mutual exclusion for four threads (J. E. Burns and N. A.
// Lynch, "Bounds on shared memory for mutual exclusion", 1993): thread i
// raises its own flag, backs off while a lower thread's flag is up, and
// waits for the higher threads' flags to fall. Each thread writes only its
// own flag and its own cs bit, so the plan races the views of each pair of
// threads (bmc prove --method views): the states two threads reach with the
// others' flags read as any value prove mutual exclusion, and their number
// grows polynomially in the threads where the reachable states grow
// exponentially (BENCHMARKS.md, "Twice the threads").
decl flag0, flag1, flag2, flag3, cs0, cs1, cs2, cs3;

void init()
begin
  flag0, flag1, flag2, flag3, cs0, cs1, cs2, cs3 := F, F, F, F, F, F, F, F;
end

thread void t0()
begin
retry:
  flag0 := F;
  flag0 := T;
  while (flag1) do
    skip;
  od
  while (flag2) do
    skip;
  od
  while (flag3) do
    skip;
  od
  cs0 := T;
  assert(!cs1 & !cs2 & !cs3);
  cs0 := F;
  flag0 := F;
end

thread void t1()
begin
retry:
  flag1 := F;
  if (flag0) then
    goto retry;
  fi
  flag1 := T;
  if (flag0) then
    goto retry;
  fi
  while (flag2) do
    skip;
  od
  while (flag3) do
    skip;
  od
  cs1 := T;
  assert(!cs0 & !cs2 & !cs3);
  cs1 := F;
  flag1 := F;
end

thread void t2()
begin
retry:
  flag2 := F;
  if (flag0) then
    goto retry;
  fi
  if (flag1) then
    goto retry;
  fi
  flag2 := T;
  if (flag0) then
    goto retry;
  fi
  if (flag1) then
    goto retry;
  fi
  while (flag3) do
    skip;
  od
  cs2 := T;
  assert(!cs0 & !cs1 & !cs3);
  cs2 := F;
  flag2 := F;
end

thread void t3()
begin
retry:
  flag3 := F;
  if (flag0) then
    goto retry;
  fi
  if (flag1) then
    goto retry;
  fi
  if (flag2) then
    goto retry;
  fi
  flag3 := T;
  if (flag0) then
    goto retry;
  fi
  if (flag1) then
    goto retry;
  fi
  if (flag2) then
    goto retry;
  fi
  cs3 := T;
  assert(!cs0 & !cs1 & !cs2);
  cs3 := F;
  flag3 := F;
end
