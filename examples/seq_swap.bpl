// expect: safe --max-steps 30
//
// A safe sequential program: a and b start different and are swapped any
// number of times, so they stay different. BMC can only say "no violation
// within 30 steps" (the loop is unbounded); a proof needs induction, and
// ABC's pdr proves the exported AIGER (docs/USAGE.md).
decl a, b;

void main()
begin
  a, b := F, T;
  while (*) do
    a, b := b, a;
  od
  assert(a != b);
end
