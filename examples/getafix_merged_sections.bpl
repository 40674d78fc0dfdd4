// expect: unsafe -k 1
// expect: safe -k 1 --switch-points getafix
// expect: unsafe --switches 1
// expect: safe --switches 1 --switch-points getafix
//
// Two atomic sections back to back, in Getafix's dialect. The writer
// sets x and clears it again, each in a section of its own; between the
// sections a context switch may happen (docs/SEMANTICS.md, "Atomicity"),
// and the reader then sees x set. Getafix places no switch point there:
// `atomic, at := T, T` is no shared access to its translator, and the
// writer's accesses to x lie inside the sections, where its flag is set
// (ir.GetafixSwitchNodes). With --switch-points getafix we ask its
// question and get its answer: safe.
decl atomic, x;

void init()
begin
  atomic, x := F, F;
endinit: skip;
end

void thread_writer()
begin
  decl at;
  atomic, at := T, T;
  x := T;
  atomic, at := F, F;
  atomic, at := T, T;
  x := F;
  atomic, at := F, F;
end

void thread_reader()
begin
  if (x) then
SLIC_ERROR: skip;
  fi
end
