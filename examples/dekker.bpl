// expect: safe --switches 8
// expect: safe -k 5
//
// Dekker's mutual exclusion algorithm for two threads (as given by Dijkstra, 1965;
// the paper kinduction-with-amplification.txt lists "dekkers" among its Fig. 12
// Sync benchmarks). Shared: flag0, flag1 (thread i wants to enter) and turn (T:
// thread 1 has priority, F: thread 0 has priority). Thread i raises its flag; while
// the other's flag is up it checks turn, and if the turn is not its own it lowers
// its flag, waits for the turn, and raises it again. After the critical section it
// hands the turn to the other thread and lowers its flag. Each thread enters the
// critical section twice (the local `again` bounds the outer loop), so the state
// space is small and finite. A ghost flag cs_i marks thread i's critical section;
// the assertion fails exactly when both threads are in it together.
//
// Why safe (at every bound, under our sequentially consistent interleaving): a
// thread enters only after reading the other's flag F while its own flag is up. If
// both were inside, let thread i be the one whose last read of the other's flag came
// later; at that time thread j's flag was already up (j raised it before its own
// final read, and keeps it up while inside), so thread i could not have read F.
// The initial turn is arbitrary: Dekker's algorithm is correct for either value.

decl flag0, flag1, turn;
decl cs0, cs1;                  // ghost: thread i is in its critical section

void init()
begin
  flag0, flag1 := F, F;
  cs0, cs1 := F, F;
  turn := *;
end

thread void p0()
begin
  decl again;
  again := T;
  while (T) do
    flag0 := T;
    while (flag1) do
      if (turn) then            // thread 1 has priority: back off
        flag0 := F;
        while (turn) do
          skip;
        od
        flag0 := T;
      fi
    od
    cs0 := T;                   // critical section
    assert(!cs1);
    cs0 := F;
    turn := T;                  // priority to thread 1
    flag0 := F;
    if (!again) then
      return;
    fi
    again := F;
  od
end

thread void p1()
begin
  decl again;
  again := T;
  while (T) do
    flag1 := T;
    while (flag0) do
      if (!turn) then           // thread 0 has priority: back off
        flag1 := F;
        while (!turn) do
          skip;
        od
        flag1 := T;
      fi
    od
    cs1 := T;                   // critical section
    assert(!cs0);
    cs1 := F;
    turn := F;                  // priority to thread 0
    flag1 := F;
    if (!again) then
      return;
    fi
    again := F;
  od
end
