// expect: safe -k 4
// expect: safe -k 4 --engine explicit
//
// A predicate abstraction's leftover, as in Getafix's SafeStack benchmarks
// (../shared/bench/getafix-trucnguyenlam/SafeStack): the producer publishes
// items whose `value` bit it always writes F, and the consumer checks each item
// it takes for T. Every write of `value` stores F, and F is its value when the
// threads start, so every read of it is F (ir.FoldConstantGlobals): the error
// path is cut off in the control flow, and the plan starts the summary engine's
// product first, which proves it without a search. The explicit search must
// visit every state of 4 rounds to say the same.
decl value, full, taken;

void init()
begin
  value, full, taken := F, F, F;
end

thread void producer()
begin
  while (T) do
    if (!full) then
      value, full := F, T;      // the only write of value: F
    fi
  od
end

thread void consumer()
begin
  while (T) do
    if (full) then
      if (value) then
        goto ERROR;             // an item that was never published
      fi
      full, taken := F, !taken;
    fi
  od
ERROR:
  skip;
end
