// expect: safe --max-steps 11
// expect: unsafe --max-steps 12
//
// A sequential program for the bmc engine: a 3-bit counter c2 c1 c0 counts
// up in a loop whose exit is nondeterministic; the assertion fails when the
// counter reaches 6. The loop test and the loop body are one block each
// (large-block steps): after the step that clears the counter, each
// increment costs the test and the body, and the violation shows inside
// the sixth body, in the step from frame 12. `bmc export --aiger` of this program is found unsafe by ABC at the
// same depth (docs/USAGE.md).
decl c0, c1, c2;

void main()
begin
  c0, c1, c2 := F, F, F;
  while (*) do
    c2, c1, c0 := c2 ^ (c1 & c0), c1 ^ c0, !c0;
    assert(!(c2 & c1 & !c0));
  od
end
