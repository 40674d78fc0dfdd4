// expect: unsafe --switches 0
// expect: unsafe -k 1
//
// Fig. 5 of "K-induction with amplification" written naively with our owned locks:
// lock() becomes acquire(m) in thread1 and unlock() becomes release(m) in thread2.
// The label `error` is still unreachable, but LANGUAGE.md makes releasing a lock the
// thread does not hold an error "reported like a failed assertion", and thread2
// never holds m. So the program is unsafe with no context switch at all: the first
// thread is chosen freely, choose thread2, whose release(m) of the free lock fails
// (with -k 1: thread1's first context is empty, then thread2 releases). If thread1
// acquires first, thread2's release of a lock held by thread1 fails just the same.
// The faithful model of the paper's owner-less lock, with error unreachable, is
// kind_fig5.bpl; this file checks the ownership rule of release.

lock m;

thread void thread1()
begin
  acquire(m);                   // [2] lock();
  return;
error:
  goto error;                   // [4]
end

thread void thread2()
begin
  release(m);                   // [6] unlock();
end
