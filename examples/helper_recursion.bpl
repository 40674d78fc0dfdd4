// expect: unsafe
// expect: unsafe --engine summaries --solver gini
// expect: unsafe --engine summaries --solver bdd
// expect: depth-bound --depth 21
// expect: unsafe --depth 22
//
// The most ordinary shape of a recursive Boolean program: a recursive
// procedure that calls a helper procedure. deeper() counts its nesting in
// the 5-bit global c4..c0 by calling inc(), and asserts that the count
// never reaches 20 (10100). The violation needs main's frame, twenty
// frames of deeper() and the frame of the twentieth call of inc(): 22.
// Without --depth the program is checked at every call depth (it
// recurses without bound), by procedure summaries.
//
// Issue 53: with the increment moved into inc(), every returned call
// doubled the counterexample derivation the summary engines unfolded
// (9.4 million tree nodes over 122 distinct ones); derivations are now
// kept as DAGs (docs/BENCHMARKS.md, "Recursion").
decl c4, c3, c2, c1, c0;

void main() begin
  c4, c3, c2, c1, c0 := F, F, F, F, F;
  deeper();
end

// inc adds one to the counter c4..c0 (a ripple-carry increment).
void inc() begin
  c4, c3, c2, c1, c0 := c4 ^ (c3 & c2 & c1 & c0), c3 ^ (c2 & c1 & c0), c2 ^ (c1 & c0), c1 ^ c0, !c0;
end

void deeper() begin
  inc();
  assert(!(c4 & !c3 & c2 & !c1 & !c0));
  deeper();
end
