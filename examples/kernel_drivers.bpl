// expect: unsafe --threads kernel=1,driver=*
// expect: safe --threads kernel=1,driver=2
//
// A kernel thread and any number of driver threads (`driver=*`: the
// question is about every number of them). Once the kernel is up, each
// driver registers in a table of two slots under the lock m. The third
// driver finds both slots taken and, by a bug, goes on as if registered:
// its assertion fails. Two drivers never get there, so the bug needs three
// driver threads; bmc check finds it by coverability and prints a trace
// with 4 threads (the kernel and three drivers), replayed with that count.

decl s1, s2, up;
lock m;

void init()
begin
  s1, s2, up := F, F, F;
end

thread void kernel()
begin
  up := T;
end

thread void driver()
begin
  decl mine;
  assume(up);                   // a driver starts once the kernel is up
  acquire(m);
  if (!s1) then
    s1, mine := T, T;
  elsif (!s2) then
    s2, mine := T, T;
  else
    mine := F;                  // the table is full: the bug is to go on
  fi
  release(m);
  assert(mine);
end
