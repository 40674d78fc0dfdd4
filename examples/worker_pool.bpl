// expect: safe -k 1
// expect: unsafe -k 2
//
// A dispatcher (main) starts worker threads on the way, in a loop, so
// that any number of them can run. Each worker takes a ticket from a
// two-bit counter under the lock m; the pool has two places, and by a bug
// nothing stops a third worker from taking a ticket. main checks, after
// starting the workers, that no more than two tickets were taken.
//
// Started threads join the round-robin order at its end and run from the
// round they were started in. Within one round main's check comes before
// every worker has run: safe for every number of workers (-k 1). From
// round 2 the check sees three tickets (-k 2): the trace has 4 threads,
// main and the three workers it started. Without -k, coverability finds
// the violation for some schedule and number of threads.

decl t0, t1;                    // tickets taken, 0 to 3
lock m;

void init()
begin
  t0, t1 := F, F;
end

void worker()
begin
  acquire(m);
  if (!t0) then                 // 0 -> 1, 1 -> 2, 2 -> 3
    t0 := T;
  elsif (!t1) then
    t0, t1 := F, T;
  else
    t0 := T;
  fi
  release(m);
end

void main()
begin
  while (*) do
    start_thread worker();
  od
  acquire(m);
  assert(!(t0 & t1));           // the bug: the third ticket
  release(m);
end
