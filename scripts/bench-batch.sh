#!/usr/bin/env bash
# bench-batch.sh: bmc batch against the same checks run one after another
# (docs/BENCHMARKS.md, "Batch runs"), on the corpus manifests.
#
#   one after another: bmc batch --jobs 1 --cpus $(nproc): each check
#                      alone on the machine, as `bmc check` alone runs it
#                      (its plan races its engines on every core)
#   batch:             bmc batch with its defaults: nproc checks at once,
#                      each on a processor of its own, its plan racing
#                      as many engines there as alone
#
# Both with the same --timeout a check. Then: the wall time of each and
# their ratio (the target: the batch in less than 60% of the time), and
# every check that both decide with the verdicts compared (the target:
# all equal); checks that one of them leaves undecided are counted apart.
#
# Usage: make bench-batch   (builds bin/bmc first)
#    or: scripts/bench-batch.sh [MANIFEST.tsv | DIR ...]
#        [default: ../shared/bench/*/MANIFEST.tsv]
#
# Options (environment variables; defaults in brackets):
#   BENCH_TIMEOUT  --timeout of each check [20s]
#   BMC            bmc binary [bin/bmc]
#   BENCH_OUT      directory of the two outputs and the plots [/tmp/bench-batch]
#
# Markdown goes to stdout, the batches' progress to BENCH_OUT/*.log.

set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

bmc=${BMC:-bin/bmc}
timeout=${BENCH_TIMEOUT:-20s}
out=${BENCH_OUT:-/tmp/bench-batch}
mkdir -p "$out"
if [ $# -eq 0 ]; then
	set -- ../shared/bench/*/MANIFEST.tsv
fi
for arg in "$@"; do
	if [ ! -e "$arg" ]; then
		echo "bench-batch: $arg: no such file (the corpus is ../shared/bench)" >&2
		exit 2
	fi
done

# run NAME FLAGS...: one batch; prints its wall time in seconds.
run() {
	local name=$1
	shift
	local start end
	start=$(date +%s.%N)
	"$bmc" batch --timeout "$timeout" -o "$out/$name.jsonl" "$@" 2>"$out/$name.log" || true
	end=$(date +%s.%N)
	echo "$start $end" | awk '{printf "%.1f", $2 - $1}'
}

cores=$(nproc)
seq_time=$(run one-after-another --jobs 1 --cpus "$cores" "$@")
batch_time=$(run batch "$@")
"$bmc" report --svg "$out/batch.svg" "$out/batch.jsonl" >/dev/null || true

python3 - "$out/one-after-another.jsonl" "$out/batch.jsonl" "$seq_time" "$batch_time" "$timeout" "$cores" "$("$bmc" --version)" <<'PY'
import json, sys
seq_path, batch_path, seq_time, batch_time, timeout, cores, version = sys.argv[1:]
def load(path):
    recs = {}
    for line in open(path):
        if line.strip():
            r = json.loads(line)
            recs[(r["file"], " ".join(r["flags"]))] = r
    return recs
decided = {"safe", "unsafe", "livelock", "no-livelock"}
seq, bat = load(seq_path), load(batch_path)
both = differ = only_seq = only_batch = neither = 0
lines = []
for key in sorted(seq.keys() | bat.keys()):
    a, b = seq.get(key), bat.get(key)
    va = a["verdict"] if a else "missing"
    vb = b["verdict"] if b else "missing"
    if va in decided and vb in decided:
        both += 1
        if va != vb:
            differ += 1
            lines.append(f"- differ: {key[0]} {key[1]}: {va} alone, {vb} in the batch")
    elif va in decided:
        only_seq += 1
        lines.append(f"- decided one after another only: {key[0]} {key[1]}: {va} ({a['wall_seconds']:.1f} s), in the batch {vb}")
    elif vb in decided:
        only_batch += 1
        lines.append(f"- decided in the batch only: {key[0]} {key[1]}: {vb} ({b['wall_seconds']:.1f} s), alone {va}")
    else:
        neither += 1
def cpu(recs):
    return sum(r["wall_seconds"] for r in recs.values())
print(f"{version}; {cores} processors; --timeout {timeout} a check; {len(seq | bat)} checks.")
print()
print("| run | wall time | checks' time added up | decided |")
print("|---|---|---|---|")
print(f"| one after another (`--jobs 1 --cpus {cores}`) | {float(seq_time):.1f} s | {cpu(seq):.1f} s | {sum(r['verdict'] in decided for r in seq.values())} |")
print(f"| batch (defaults: `--jobs {cores} --cpus 1`) | {float(batch_time):.1f} s | {cpu(bat):.1f} s | {sum(r['verdict'] in decided for r in bat.values())} |")
print()
print(f"The batch took {float(batch_time) / float(seq_time) * 100:.0f}% of the time of the checks one after another. "
      f"Verdicts: {both} checks decided by both, {differ} differ; {only_seq} decided only one after another, "
      f"{only_batch} only in the batch, {neither} by neither.")
if lines:
    print()
    print("\n".join(lines))
PY
