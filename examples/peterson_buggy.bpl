// expect: safe --switches 1
// expect: unsafe --switches 2
// expect: safe -k 1
// expect: unsafe -k 2
//
// A broken Peterson (compare peterson.bpl): each thread writes turn *before*
// raising its flag, instead of after. The same ghost flags cs0/cs1 and assertion
// check mutual exclusion; each thread enters the critical section once.
//
// The bug, with 2 context switches:
//   p0: turn := T                                    (flag0 still F)
//   p1: turn := F; flag1 := T; flag0 is F, so p1 leaves its wait loop;
//       cs1 := T; assert(!cs0) holds                  -- switch 1
//   p0: flag0 := T; turn is F, so p0 leaves its wait loop;
//       cs0 := T; assert(!cs1) fails                  -- switch 2
// With -k 2 this is round 1: p0, p1; round 2: p0.
// Why not 1 switch: then the first thread A runs alone, and after the switch the
// other thread B runs alone. If A is inside its critical section at the switch, its
// flag is up and stays up (A never runs again), and B's `turn :=` gives the turn to
// A, so B spins forever in its wait loop. If A is not inside, it never will be, and
// only B can enter. Either way
// at most one thread is in the critical section. -k 1 (one context for p0, then one
// for p1) is the same situation.

decl flag0, flag1, turn;
decl cs0, cs1;

void init()
begin
  flag0, flag1 := F, F;
  cs0, cs1 := F, F;
  turn := *;
end

thread void p0()
begin
  turn := T;                    // BUG: turn before flag
  flag0 := T;
  while (flag1 & turn) do
    skip;
  od
  cs0 := T;
  assert(!cs1);
  cs0 := F;
  flag0 := F;
end

thread void p1()
begin
  turn := F;                    // BUG: turn before flag
  flag1 := T;
  while (flag0 & !turn) do
    skip;
  od
  cs1 := T;
  assert(!cs0);
  cs1 := F;
  flag1 := F;
end
