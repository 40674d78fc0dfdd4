#!/usr/bin/env bash
# bench-moped.sh: the table of docs/BENCHMARKS.md "Moped beside our engines":
# `bmc compare` on the concurrent examples (the mutual-exclusion protocols
# among them) at 2 and 3 round-robin rounds: the explicit engine, BMC on the
# eager and lazy sequentializations with gini and Z3, the summary engine
# on the context encoding with gini (our Spacer), bdd (the least model on
# decision diagrams) and Z3 (every call depth), and Moped 1.0.15 on our
# eager and lazy sequential programs (bmc seq --for moped). Moped is run only
# when it is installed (on the PATH, or named by MOPED); otherwise its
# columns say so. Its build is described in docs/USAGE.md, "Comparing with
# Moped"; nothing of it is in this repository.
#
# Usage: make bench-moped          (builds bin/bmc first)
#    or: scripts/bench-moped.sh    (from anywhere; runs in the repository root)
#
# Markdown on stdout, progress on stderr, the JSON of every comparison in
# BENCH_JSON. Each row is one run of
#   bmc compare --json --quiet -k K --timeout T [--threads ...] prog
# whose runs go one after the other. Cells: "0.12 s safe", "0.40 s VIOL"
# (a violation), ">60 s" (the timeout), "unknown (reason)", "error".
# Worst case with the defaults: 19 rows x 2 bounds x 10 runs x 60 s, about
# 6 hours; most runs end in seconds (see docs/BENCHMARKS.md).
#
# Options (environment variables; defaults in brackets):
#   BENCH_ROUNDS    round bounds [2 3]
#   BENCH_TIMEOUT   per run, as bmc's --timeout [60s]
#   BENCH_ONLY      a pattern: only rows whose program matches [all]
#   BENCH_ENGINES   only these runs, as bmc compare --engines, e.g.
#                   summaries,moped [the table's columns]; the others'
#                   cells say "not run"
#   BMC             bmc binary [bin/bmc]
#   MOPED           Moped executable [moped on the PATH]
#   BENCH_JSON      [/tmp/bench-moped.json]

set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

rounds=${BENCH_ROUNDS:-2 3}
timeout=${BENCH_TIMEOUT:-60s}
only=${BENCH_ONLY:-}
bmc=${BMC:-bin/bmc}
json=${BENCH_JSON:-/tmp/bench-moped.json}
moped_flag=()
if [ -n "${MOPED:-}" ]; then
  moped_flag=(--moped "$MOPED")
fi
engines=${BENCH_ENGINES:-explicit,bmc eager,bmc lazy,summaries context,moped}
moped_flag+=(--engines "$engines")
command -v python3 >/dev/null || { echo "bench-moped.sh: needs python3 to read bmc's JSON" >&2; exit 2; }

# program and thread counts, one row each
rows=(
  "bluetooth.bpl adder=1,stopper=1"
  "bluetooth.bpl adder=2,stopper=1"
  "bluetooth.bpl adder=1,stopper=2"
  "dekker.bpl"
  "lamport_fast.bpl"
  "peterson.bpl"
  "peterson_buggy.bpl"
  "philosophers_trylock.bpl"
  "kind_fig1.bpl"
  "kind_fig11.bpl"
  "kind_fig5.bpl"
  "kind_fig5_owned.bpl"
  "mutant_fig1a.bpl"
  "mutant_fig1b.bpl"
  "mutant_fig1c.bpl"
  "permutation4.bpl"
  "permutation16.bpl"
  "permutation_late.bpl"
)

py=$(mktemp)
trap 'rm -f "$py"' EXIT
cat > "$py" <<'PY'
import json, sys
label, k, timeout, only = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
doc = json.load(sys.stdin)
if "runs" not in doc:
    print(f"| {label} | {k} | error: {doc['errors'][0]['message']} |")
    sys.exit(0)
# The columns, by the method names bmc compare gives its runs.
methods = {"explicit": "explicit", "moped eager": "moped eager", "moped lazy": "moped lazy"}
for solver in ["gini", "z3", "bdd"]:
    for seq in ["eager", "lazy"]:
        methods[f"bmc {seq} {solver}"] = f"bmc+{solver}, {seq} sequentialization"
    methods[f"summaries {solver}"] = f"summaries+{solver}, context encoding"
cells = {r["engine"]: r for r in doc["runs"]}
def cell(name):
    method = methods[name]
    r = cells.get(method)
    if r is None:
        if not any(all(w in method for w in e.split()) for e in only.split(",")):
            return "not run"
        return "not installed" if name.startswith("moped") else "n/a"
    v, s, d = r["verdict"], r["seconds"], r.get("detail", "")
    if v == "unsafe":
        return f"{s:.2f} s VIOL"
    if v == "safe":
        return f"{s:.2f} s safe"
    if v == "unknown" and d.startswith("timeout"):
        return f">{timeout}"
    if v == "unknown":
        return f"{s:.2f} s unknown ({d.split(' (')[0]})"
    return "error"
names = ["explicit", "bmc eager gini", "bmc lazy gini", "bmc eager z3", "bmc lazy z3", "summaries gini", "summaries bdd", "summaries z3", "moped eager", "moped lazy"]
print(f"| {label} | {k} | " + " | ".join(cell(n) for n in names) + f" | {doc['verdict']} |")
PY

: > "$json"
echo "| program | rounds | explicit | bmc eager gini | bmc lazy gini | bmc eager z3 | bmc lazy z3 | summaries gini | summaries bdd | summaries z3 | Moped eager | Moped lazy | agree |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for row in "${rows[@]}"; do
  read -r prog threads <<<"$row"
  case "$prog" in *$only*) ;; *) continue ;; esac
  for k in $rounds; do
    args=(compare --json --quiet -k "$k" --timeout "$timeout" "${moped_flag[@]}")
    label=$prog
    if [ -n "${threads:-}" ]; then
      args+=(--threads "$threads")
      label="$prog $threads"
    fi
    echo "bench-moped: $label -k $k" >&2
    out=$("$bmc" "${args[@]}" "examples/$prog" || true)
    printf '%s\n' "$out" >> "$json"
    printf '%s' "$out" | python3 "$py" "$label" "$k" "$timeout" "$engines" || echo "| $label | $k | (no answer) |"
  done
done
