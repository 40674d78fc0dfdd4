// expect: safe -k 3
// expect: safe --switches 4
//
// The envelope at work (K-induction with amplification, kinduction-with-
// amplification.txt, Example 4.1 and Eqns. 8 and 9): t1 returns at once, and the
// code after its return, a handshake of ten turns with t2 that ends in a failing
// assertion, is dead. t2 raises the flag whenever it is down. The program is safe.
//
// `bmc prove --method amplify` proves it with K = 1: the envelope holds the stacks
// the control-flow graph reaches, and no dead line is among them. With
// --no-envelope (Eqn. 8, every well-formed state) the inductive case starts t1
// inside the dead handshake, from where the assertion fails only after as many
// rounds as turns are left: there is a counterexample to induction at every K up
// to 10, and the search ends at --max-rounds (exit 3).

decl f;

void init()
begin
  f := F;
end

thread void t1()
begin
  return;
  while (!f) do skip; od
  f := F;
  while (!f) do skip; od
  f := F;
  while (!f) do skip; od
  f := F;
  while (!f) do skip; od
  f := F;
  while (!f) do skip; od
  f := F;
  while (!f) do skip; od
  f := F;
  while (!f) do skip; od
  f := F;
  while (!f) do skip; od
  f := F;
  while (!f) do skip; od
  f := F;
  while (!f) do skip; od
  f := F;
  assert(F);
end

thread void t2()
begin
  while (T) do
    if (!f) then
      f := T;
    fi
  od
end
