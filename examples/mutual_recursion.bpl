// expect: unsafe
// expect: unsafe --engine summaries --solver gini
// expect: unsafe --engine summaries --solver bdd
// expect: depth-bound --depth 42
// expect: unsafe --depth 43
//
// Mutual recursion through a helper: even() and odd() call each other,
// and both count their nesting in the 6-bit global c5..c0 by calling
// inc(). Both assert that the count never reaches 41 (101001), which
// needs main's frame, 41 frames of even() and odd() and the frame of the
// last call of inc(): 43. Without --depth the program is checked at every
// call depth (it recurses without bound), by procedure summaries.
//
// Issue 53: the summary engines gave no answer in 60 s on this program
// (the default plan ran out of memory after 34 s) while Moped answered
// in 0.03 s: the counterexample derivation, unfolded into a tree, doubles
// at every returned call of inc() (about 2e13 nodes here); derivations
// are now kept as DAGs (docs/BENCHMARKS.md, "Recursion").
decl c5, c4, c3, c2, c1, c0;

void main() begin
  c5, c4, c3, c2, c1, c0 := F, F, F, F, F, F;
  even();
end

// inc adds one to the counter c5..c0 (a ripple-carry increment).
void inc() begin
  c5, c4, c3, c2, c1, c0 := c5 ^ (c4 & c3 & c2 & c1 & c0), c4 ^ (c3 & c2 & c1 & c0), c3 ^ (c2 & c1 & c0), c2 ^ (c1 & c0), c1 ^ c0, !c0;
end

void even() begin
  inc();
  assert(!(c5 & !c4 & c3 & !c2 & !c1 & c0));
  odd();
end

void odd() begin
  inc();
  assert(!(c5 & !c4 & c3 & !c2 & !c1 & c0));
  even();
end
