// expect: unsafe -k 1
// expect: unsafe --switches 2
// expect: depth-bound -k 1 --depth 16
// expect: depth-bound --switches 2 --depth 20
// expect: unsafe -k 1 --depth 21
//
// A bug that needs a deep stack inside a thread. Thread t1 calls down(),
// which counts its nesting in the 5-bit global c4..c0 and sets flag at
// the 20th nested call: t1's frame and twenty of down(), 21 frames in
// all. Thread t2 asserts !flag, so the violation needs t1 to run first
// (one round, or one switch: t1, then t2). The summary engine finds it
// at every call depth; its trace is replayed with the 21 frames it
// reaches. With --depth 16 or 20 stated the violation lies beyond the
// bound: every search within it ends at the depth bound, and the answer
// is "unknown" (exit 3) naming the 21 frames the violation needs.
decl c4, c3, c2, c1, c0;
decl flag;

void init() begin
  c4, c3, c2, c1, c0 := F, F, F, F, F;
  flag := F;
end

void down() begin
  c4, c3, c2, c1, c0 := c4 ^ (c3 & c2 & c1 & c0), c3 ^ (c2 & c1 & c0), c2 ^ (c1 & c0), c1 ^ c0, !c0;
  if (c4 & !c3 & c2 & !c1 & !c0) then
    flag := T;
  else
    down();
  fi
end

thread void t1() begin down(); end
thread void t2() begin assert(!flag); end
