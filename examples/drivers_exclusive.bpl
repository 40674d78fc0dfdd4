// expect: safe --threads kernel=1,driver=*
// expect: safe --threads kernel=1,driver=3 -k 3
//
// A kernel thread and any number of driver threads share a device under
// the lock m; the ghost flag busy says someone is using it. Mutual
// exclusion holds for every number of drivers and every interleaving:
// bmc check proves it by coverability (a backward fixpoint over
// configurations that count the threads in each state).

decl busy;
lock m;

void init()
begin
  busy := F;
end

thread void kernel()
begin
  acquire(m);
  assert(!busy);
  release(m);
end

thread void driver()
begin
  while (*) do
    acquire(m);
    assert(!busy);
    busy := T;                  // the device is in use
    busy := F;
    release(m);
  od
end
