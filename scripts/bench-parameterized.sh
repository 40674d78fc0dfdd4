#!/usr/bin/env bash
# bench-parameterized.sh: the table of parameterized programs
# (docs/BENCHMARKS.md, "Parameterized programs"): every row of kind
# `parameterized` in the manifests of ../shared/bench (ijit-ase16,
# satabs-boppo, bopp-parser-tests, bp-reduce-gbasler) and our examples
# with `driver=*` or threads started in a loop. Columns, one run each,
# with --timeout BENCH_TIMEOUT:
#
#   default        bmc check prog            (the plan's race)
#   coverability   bmc check --engine coverability prog
#   interfaces     bmc check --engine interfaces prog  (k = 1, 2, ... with
#                  the adequacy check where every thread exists from the
#                  start; violations only for programs that start threads
#                  on the way)
#   explicit       bmc check --engine explicit prog  (within 4 threads)
#
# Cells: the verdict and the time ("unsafe 0.03 s", "safe 0.06 s",
# "exit 3 5.02 s", "refused"); the default column adds the winner and,
# for a violation, its thread count.
#
# Usage: make bench-parameterized   (builds bin/bmc first)
#
# Options (environment variables; defaults in brackets):
#   BENCH_TIMEOUT   per-run limit in seconds [5]
#   BENCH_ROOT      the corpus [../shared/bench]
#   BMC             bmc binary [bin/bmc]

set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

timeout_sec=${BENCH_TIMEOUT:-5}
root=${BENCH_ROOT:-../shared/bench}
bmc=${BMC:-bin/bmc}

# cell FILE FLAGS...: one run, as "verdict time".
cell() {
	local file=$1
	shift
	local start end out rc
	start=$(date +%s.%N)
	set +e
	out=$("$bmc" check --quiet --json --timeout "${timeout_sec}s" "$@" "$file" 2>&1)
	rc=$?
	set -e
	end=$(date +%s.%N)
	local t
	t=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f s", b - a }')
	case $rc in
	0) echo "safe $t" ;;
	10)
		local n
		n=$(printf '%s' "$out" | sed -n 's/^  "threads": \([0-9]*\),*$/\1/p' | head -1)
		echo "unsafe${n:+, $n thr.} $t"
		;;
	3) echo "exit 3 $t" ;;
	2) echo "refused" ;;
	*) echo "exit $rc $t" ;;
	esac
}

winner() {
	local out
	out=$("$bmc" check --quiet --json --timeout "${timeout_sec}s" "$@" 2>/dev/null || true)
	printf '%s\n' "$out" | sed -n 's/^  "winner": "\(.*\)",*$/\1/p' | head -1
}

echo "| program | expected | default | winner | coverability | interfaces | explicit (4 threads) |"
echo "|---|---|---|---|---|---|---|"
rows() {
	for dir in ijit-ase16 satabs-boppo bopp-parser-tests bp-reduce-gbasler; do
		[ -f "$root/$dir/MANIFEST.tsv" ] || continue
		awk -F'\t' -v d="$dir" 'NR > 1 && $2 == "parameterized" { print d "/" $1 "\t" $3 "\t" }' "$root/$dir/MANIFEST.tsv" |
			sed "s|^|$root/|"
	done
	printf 'examples/kernel_drivers.bpl\tunsafe\t--threads kernel=1,driver=*\n'
	printf 'examples/drivers_exclusive.bpl\tsafe\t--threads kernel=1,driver=*\n'
	printf 'examples/worker_pool.bpl\tunsafe\t\n'
}
rows | while IFS=$'\t' read -r file expected flags; do
	echo "$file" >&2
	# shellcheck disable=SC2086
	d=$(cell "$file" $flags)
	# shellcheck disable=SC2086
	w=$(winner $flags "$file")
	# shellcheck disable=SC2086
	c=$(cell "$file" --engine coverability $flags)
	# shellcheck disable=SC2086
	i=$(cell "$file" --engine interfaces $flags)
	# shellcheck disable=SC2086
	e=$(cell "$file" --engine explicit $flags)
	echo "| ${file#"$root/"} | $expected | $d | $w | $c | $i | $e |"
done
