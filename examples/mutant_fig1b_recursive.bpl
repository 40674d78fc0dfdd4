// expect: safe --switches 1
// expect: unsafe --switches 2
// expect: safe -k 1
// expect: unsafe -k 2
// expect: livelock --lasso 1,1
// expect: livelock --lasso 1,1 --fairness weak
// expect: livelock --lasso 2,2 --fairness none
// expect: no-livelock --lasso 0,1
// expect: livelock --lasso 1,1 --engine summaries
// expect: no-livelock --lasso 0,1 --engine summaries
//
// Fig. 1(b) of "Finding non-terminating executions in multithreaded programs"
// (MUTANT; mutant-fair-nontermination.txt) with Thread1's retry loop written as a
// recursive call, as in examples/mutant_fig1b.bpl otherwise:
//    proc Thread1 () while g do g := false; return
//    proc Thread2 () while !g do g := true; return
// Thread1 retries by calling retry again, which never returns while it keeps
// retrying: each retry leaves one more frame on its stack. The paper's section 3.3
// calls this a keyframe lasso: after each period Thread1's stack is one frame
// deeper, and the frame on top (retry at its first statement) is the same; the
// frames below it are never returned to, so the period repeats forever.
//
// Livelock, --lasso 1,1 (strongly fair): in the stem round Thread1 calls retry;
// with g = T initially, nothing else happens (Thread2's context is empty). Loop
// round: Thread1 tests g (T), sets g := F and calls retry again (one frame deeper,
// at the same statement); Thread2 tests !g (T) and sets g := T, back at its loop
// head. The globals, Thread2 and Thread1's top frame are as at the start of the
// round, and Thread1 never returned from the frame it started the round in: the
// round repeats forever, each time one frame deeper, and both threads step in it.
// The witness needs 3 frames on Thread1's stack (Thread1, retry, retry), within
// --depth. With --lasso 0,1 there is none: the loop would begin right after init,
// with Thread1 at its first statement and only its own frame on its stack, and
// no step of Thread1 comes back to its first statement; a loop without steps of
// Thread1 is unfair to it, and without fairness it would need Thread2 alone to
// come back (Thread2 stops looping once it has set g).
//
// Safety: the assertion after the retries is ours, as in mutant_fig1b.bpl.
// Thread1 leaves retry having read g = F, but Thread2 may set g := T before the
// assertion: 2 switches (Thread1 reads F, Thread2 sets T, Thread1 asserts), or -k 2.
// Every execution within these bounds stays within the call depth: Thread1
// recurses once per write of Thread2, and each write needs a context of its own.

decl g;

thread void Thread1()
begin
  retry();
  assert(!g);                   // ours: fails if Thread2 interferes after the test
  return;
end

// retry is Thread1's loop `while g do g := false`, written as a recursive call.
void retry()
begin
  if (g) then                   // [7]
    g := F;                     // [8]
    retry();
  fi
  return;
end

thread void Thread2()
begin
  while (!g) do                 // [12]
    g := T;                     // [13]
  od
  return;                       // [14]
end
