// expect: safe --switches 4
// expect: safe -k 3
//
// Fig. 5 of "K-induction with amplification" (kinduction-with-amplification.txt):
// thread1 calls lock(), thread2 calls unlock(); `error` is unreachable because no
// statement jumps to it (the paper uses this program, Example 4.1, to show that the
// inductive step of K-induction needs the abstract-interpretation envelope: from
// the spurious stacks (t1,[2][2][4]), (t2,[6]) the error label "is reached").
//
// Modelling of the lock. In the paper lock() and unlock() are atomic functions on
// one Boolean lock: lock() blocks while the lock is taken, and unlock() frees it
// whoever holds it; in Example 4.1 thread2 unlocks the lock that thread1 took. Our
// `lock`/`release` primitives have owners, and releasing a lock one does not hold
// is itself an error (LANGUAGE.md), so the figure cannot be written with them
// without changing its verdict: see kind_fig5_owned.bpl for that version. Here the
// lock is the global Boolean `locked`, and lock()/unlock() are the functions
// lock_fn()/unlock_fn() (names that do not suggest our `lock` declarations), each one atomic
// section. lock_fn() waits with `assume(!locked)`, which for reachability is the
// same as blocking: a path that would block is dropped, and the path that calls
// lock_fn() later is explored separately. No statement jumps to `error`, so it is
// unreachable at every bound; init makes the lock start free.

decl locked;

void init()
begin
  locked := F;
end

void lock_fn()
begin
  atomic_begin;
  assume(!locked);
  locked := T;
  atomic_end;
end

void unlock_fn()
begin
  atomic_begin;
  locked := F;
  atomic_end;
end

thread void thread1()           // [1]
begin
  lock_fn();                    // [2] lock();
  return;                       // [3]
error:
  goto error;                   // [4]
end

thread void thread2()           // [5]
begin
  unlock_fn();                  // [6] unlock();
end
