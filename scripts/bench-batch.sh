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
#   BENCH_RUNS     pairs of runs, the two in turn; medians and the ratio
#                  of each pair reported, the verdicts of every run
#                  compared [1]
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
runs=${BENCH_RUNS:-1}
times=()
for i in $(seq 1 "$runs"); do
	echo "bench-batch: pair $i of $runs" >&2
	times+=("$(run "one-after-another-$i" --jobs 1 --cpus "$cores" "$@")")
	times+=("$(run "batch-$i" "$@")")
done
"$bmc" report --svg "$out/batch.svg" "$out/batch-1.jsonl" >/dev/null || true

python3 - "$out" "$runs" "$timeout" "$cores" "$("$bmc" --version)" "${times[@]}" <<'PY'
import json, statistics, sys
out, runs, timeout, cores, version = sys.argv[1:6]
runs = int(runs)
pairs = [(float(sys.argv[6 + 2 * i]), float(sys.argv[7 + 2 * i])) for i in range(runs)]
def load(path):
    recs = {}
    for line in open(path):
        if line.strip():
            r = json.loads(line)
            recs[(r["file"], " ".join(r["flags"]))] = r
    return recs
decided = {"safe", "unsafe", "livelock", "no-livelock"}
# Every run's records. A check differs when two runs of either mode
# decide it otherwise; decided by both, by one or by neither counts run 1.
seqs = [load(f"{out}/one-after-another-{i + 1}.jsonl") for i in range(runs)]
bats = [load(f"{out}/batch-{i + 1}.jsonl") for i in range(runs)]
seq, bat = seqs[0], bats[0]
both = differ = only_seq = only_batch = neither = 0
lines = []
for key in sorted(set().union(*seqs, *bats)):
    verdicts = {r[key]["verdict"] for r in seqs + bats if key in r} & decided
    if len(verdicts) > 1:
        differ += 1
        lines.append(f"- differ: {key[0]} {key[1]}: " + ", ".join(sorted(verdicts)))
    a, b = seq.get(key), bat.get(key)
    va = a["verdict"] if a else "missing"
    vb = b["verdict"] if b else "missing"
    if va in decided and vb in decided:
        both += 1
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
seq_time = statistics.median(p[0] for p in pairs)
batch_time = statistics.median(p[1] for p in pairs)
ratios = [b / a for a, b in pairs]
print(f"{version}; {cores} processors; --timeout {timeout} a check; {len(seq | bat)} checks; "
      f"{runs} pair(s) of runs, the two in turn, medians.")
print()
print("| run | wall time | checks' time added up (run 1) | decided (run 1) |")
print("|---|---|---|---|")
print(f"| one after another (`--jobs 1 --cpus {cores}`) | {seq_time:.1f} s | {cpu(seq):.1f} s | {sum(r['verdict'] in decided for r in seq.values())} |")
print(f"| batch (defaults: `--jobs {cores} --cpus 1`) | {batch_time:.1f} s | {cpu(bat):.1f} s | {sum(r['verdict'] in decided for r in bat.values())} |")
print()
print(f"The batch took {statistics.median(ratios) * 100:.0f}% of the time of the checks one after another "
      f"(median of the pairs' ratios; pairs: {', '.join(f'{r * 100:.0f}%' for r in ratios)}). "
      f"Verdicts: {differ} checks decided otherwise in some run; {both} decided by both, {only_seq} only one after another, "
      f"{only_batch} only in the batch, {neither} by neither (run 1 of each).")
if lines:
    print()
    print("\n".join(lines))
PY
