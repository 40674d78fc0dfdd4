// expect: safe --switches 6 --threads adder=1,stopper=1
// expect: safe --switches 6 --threads adder=2,stopper=1
// expect: safe --switches 4 --threads adder=2,stopper=2
// expect: safe -k 3 --threads adder=2,stopper=2
//
// examples/bluetooth.bpl (the KISS Bluetooth driver model of Qadeer and Wu, as in
// section 6 and Fig. 5 of the lazy-sequentialization paper,
// lazy-sequentialization-cav09.txt) with both of its bugs fixed, for the
// benchmarks of safe programs (docs/BENCHMARKS.md, "Portfolio"):
// - an adder that backs off (it saw stoppingFlag) has already given its reference
//   back in IoIncrement, so only an adder that is counted (status T) decrements
//   after its I/O; bluetooth.bpl's adder decrements twice on that path, which lets
//   a second adder drive pendingIo to 0 under the first one's I/O;
// - only the first stopper, the one that finds stoppingFlag F (a test-and-set, in
//   an atomic section), drops the driver's initial reference; in bluetooth.bpl
//   every stopper drops it, so two stoppers drive pendingIo to 0 under an adder.
// Why it is safe: pendingIo counts the initial reference until the first stopper
// drops it, and every adder from its increment to its decrement, except one that
// backs off, which never reaches the I/O. An adder in its I/O saw stoppingFlag F,
// so it incremented before any stopper dropped the initial reference, and it is
// counted until after its assertion: pendingIo stays >= 1 meanwhile, so
// stoppingEvent, and hence stopped, cannot be set before its assertion. pendingIo
// stays within 0..4 with 3 adders, distinct modulo 8.

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
    IoDecrement();              // fixed: only an adder that is counted
  fi
end

thread void stopper()
begin
  decl first;
  atomic_begin;                 // fixed: only the first stopper drops the
  first := !stoppingFlag;       // initial reference
  stoppingFlag := T;
  atomic_end;
  if (first) then
    IoDecrement();
  fi
  assume(stoppingEvent);        // wait for stoppingEvent
  stopped := T;                 // release the driver's resources
end
