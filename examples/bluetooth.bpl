// expect: safe --switches 3 --threads adder=2,stopper=1
// expect: unsafe --switches 4 --threads adder=2,stopper=1
// expect: safe -k 2 --threads adder=2,stopper=1
// expect: unsafe -k 3 --threads adder=2,stopper=1
// expect: safe --switches 6 --threads adder=1,stopper=1
// expect: safe -k 4 --threads adder=1,stopper=1
// expect: safe --switches 2 --threads adder=1,stopper=2
// expect: unsafe --switches 3 --threads adder=1,stopper=2
//
// The Windows NT Bluetooth driver model of Qadeer and Wu (KISS, PLDI 2004) as used
// in section 6 and Fig. 5 of the lazy-sequentialization paper
// (lazy-sequentialization-cav09.txt): adder threads do I/O in the driver, stopper
// threads stop it; "the I/O is successfully handled if the driver is not stopped,
// and an error state is reached otherwise". This is the *fixed* driver (the adder
// increments pendingIo first and then checks stoppingFlag, backing off when the
// driver is stopping), which keeps the second bug that Fig. 5 reports: with 1 adder
// and 1 stopper the target is never reached (up to 6 switches), with 2 adders and
// 1 stopper it is reached from 4 context switches on.
//
// State: pendingIo, a 3-bit counter p2 p1 p0 (p0 least significant; the paper uses
// 5 bits), initially 1 (the stopper's own reference); stoppingFlag, stoppingEvent,
// stopped, initially F. The increment, and the decrement together with the test of
// its result, are atomic sections, like the driver's InterlockedIncrement and
// InterlockedDecrement (whose returned value is tested); signalling the event
// inside the same section changes no verdict, since stoppingEvent only goes from F
// to T. Wrap-around is harmless: with at most 2 adders and 2 stoppers, pendingIo
// stays within -3..3, whose values are distinct modulo 8.
//
//   adder:   IoIncrement: pendingIo++; if stoppingFlag then IoDecrement; status := F
//                                       else status := T
//            if status then assert(!stopped) fi          // the I/O
//            IoDecrement                         // (also on the back-off path!)
//   stopper: stoppingFlag := T; IoDecrement; wait for stoppingEvent; stopped := T
//   IoDecrement: pendingIo--; if pendingIo = 0 then stoppingEvent := T fi
//
// The bug: an adder that backs off decrements twice (once in IoIncrement, once in
// the adder), so a second adder can drive pendingIo to 0 while the first adder is
// still doing I/O. Shortest interleaving, 2 adders A1 A2, stopper S, 4 switches:
//   A1: pendingIo++ (2), stoppingFlag is F, status := T     -- A1 is in its I/O
//   S:  stoppingFlag := T, pendingIo-- (1), not 0           -- switch 1
//   A2: pendingIo++ (2), stoppingFlag is T: pendingIo-- (1); status := F;
//       pendingIo-- (0): stoppingEvent := T                 -- switch 2
//   S:  stoppingEvent holds, stopped := T                   -- switch 3
//   A1: assert(!stopped) fails                              -- switch 4
// Why not 3: A1 must test stoppingFlag before S sets it and assert after S sets
// stopped. A2 must test stoppingFlag after S sets it, and S can set stopped only
// after A2's two decrements (without them pendingIo stays >= 1 while A1 is counted,
// so stoppingEvent stays F). So S runs before and after A2, and A1 before and after
// S: the contexts are at least A1, S, A2, S, A1, i.e. 4 switches. With rounds
// (instance order adder#1, adder#2, stopper): round 1 A1 (increment, test), A2
// empty, S (flag, decrement); round 2 A1 empty, A2 (back-off, event), S (stopped);
// round 3 A1 asserts: -k 3. In -k 2, A1's last context precedes S's last one, and
// S cannot set stopped in round 1 (A2 must see the flag first), so no violation.
// With 1 adder and 1 stopper there is no violation at any bound: an adder reaches
// the assertion only if it saw stoppingFlag F, i.e. before the stopper started, so
// pendingIo counts it (>= 1 after the stopper's decrement) until its own final
// decrement, which comes after the assertion; stoppingEvent, hence stopped, cannot
// be set before. Fig. 5's third column, 1 adder and 2 stoppers, is reachable from
// 3 switches: A (pendingIo++ (2), flag F, status T), S1 (flag, pendingIo-- (1)),
// S2 (flag, pendingIo-- (0), stoppingEvent, stopped := T), A asserts. Each stopper
// drops the single initial reference. 2 switches are not enough: A must run before
// the first flag and after the last stopped, and both stoppers must decrement in
// between (contexts A, S1, S2, A at least).

decl p2, p1, p0;                // pendingIo
decl stoppingFlag, stoppingEvent, stopped;

void init()
begin
  p2, p1, p0 := F, F, T;        // pendingIo = 1
  stoppingFlag, stoppingEvent, stopped := F, F, F;
end

void IoDecrement()
begin
  atomic_begin;
  p2, p1, p0 := p2 ^ (!p1 & !p0), p1 ^ !p0, !p0;     // pendingIo--
  if (!p2 & !p1 & !p0) then                          // the new value is 0
    stoppingEvent := T;
  fi
  atomic_end;
end

bool IoIncrement()
begin
  atomic_begin;
  p2, p1, p0 := p2 ^ (p1 & p0), p1 ^ p0, !p0;        // pendingIo++
  atomic_end;
  if (stoppingFlag) then
    IoDecrement();
    return F;
  fi
  return T;
end

thread void adder()
begin
  decl status;
  status := IoIncrement();
  if (status) then
    assert(!stopped);           // do the I/O: the driver must not be stopped
  fi
  IoDecrement();
end

thread void stopper()
begin
  stoppingFlag := T;
  IoDecrement();
  assume(stoppingEvent);        // wait for stoppingEvent
  stopped := T;                 // release the driver's resources
end
