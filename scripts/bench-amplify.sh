#!/usr/bin/env bash
# bench-amplify.sh: the tables of K-induction with amplification
# (docs/BENCHMARKS.md, "K-induction with amplification"), our programs for
# Fig. 12 and Fig. 13 of kinduction-with-amplification.txt and the fixed
# Bluetooth driver with 1..3 adders x 1..3 stoppers. Rows: a file with its
# thread counts and the paper's K and time (- where the paper has no row).
# Columns, each the median of BENCH_RUNS runs:
#
#   K         the K of the proof (bmc prove --method amplify --json)
#   amplify   bmc prove --method amplify prog  (decision diagrams, the
#             inductive case's re-check beside the base case on the
#             second core)
#   1 core    bmc prove --method amplify --cores 1 prog  (the same, one
#             thing after another)
#   gini      bmc prove --method amplify --solver gini prog  (the candidate
#             and run solvers)
#   pdr       bmc prove --method pdr prog   (the interleaving product)
#   at K-1    bmc prove --method amplify --max-rounds K-1 prog:
#             "CTI" when it ends with a counterexample to induction (the
#             program needs K)
#
# Usage: make bench-amplify   (builds bin/bmc first)
#    or: scripts/bench-amplify.sh
#
# Options (environment variables; defaults in brackets):
#   BENCH_TIMEOUT   per-run limit in seconds [60]
#   BENCH_RUNS      runs per cell [3]
#   BENCH_COLUMNS   any of: amplify 1core gini pdr [amplify 1core pdr]
#   BENCH_TABLES    any of: fig12 fig13a fig13b bluetooth [all four]
#   BMC             bmc binary [bin/bmc]
#
# Markdown goes to stdout, progress to stderr. Cells: "0.12 s", ">60 s"
# (timed out), "unknown" (exit 3).

set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

timeout_sec=${BENCH_TIMEOUT:-60}
runs=${BENCH_RUNS:-3}
columns=${BENCH_COLUMNS:-amplify 1core pdr}
tables=${BENCH_TABLES:-fig12 fig13a fig13b bluetooth}
bmc=${BMC:-bin/bmc}

die() {
	echo "bench-amplify: $*" >&2
	exit 2
}
[[ $timeout_sec =~ ^[0-9]+$ ]] && ((timeout_sec > 0)) || die "BENCH_TIMEOUT=$timeout_sec: want a positive number of seconds"
[[ $runs =~ ^[0-9]+$ ]] && ((runs > 0)) || die "BENCH_RUNS=$runs: want a positive number"
for c in $columns; do
	case $c in amplify | 1core | gini | pdr) ;; *) die "BENCH_COLUMNS: unknown column '$c'" ;; esac
done
for t in $tables; do
	case $t in fig12 | fig13a | fig13b | bluetooth) ;; *) die "BENCH_TABLES: unknown table '$t'" ;; esac
done
[[ -x $bmc ]] || die "$bmc: not built (make build)"

# wanted TABLE: whether BENCH_TABLES names it.
wanted() { [[ " $tables " == *" $1 "* ]]; }

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go run ./scripts/loopprogs "$dir"

# cell FLAGS...: the median time of bmc prove FLAGS over the runs, or why not.
cell() {
	local times=() t0 t1 code
	for ((r = 0; r < runs; r++)); do
		t0=$(date +%s.%N)
		code=0
		timeout "$timeout_sec" "$bmc" prove --quiet "$@" >/dev/null 2>&1 || code=$?
		t1=$(date +%s.%N)
		case $code in
		0 | 10) times+=("$(echo "$t1 - $t0" | bc)") ;;
		124) echo ">$timeout_sec s" && return ;;
		3) echo "unknown" && return ;;
		*) echo "exit $code" && return ;;
		esac
	done
	printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.2f s\n", a[int((NR+1)/2)]}'
}

# row NAME FILE THREADS PAPER_K PAPER_TIME
row() {
	local name=$1 file=$2 threads=$3 pk=$4 pt=$5 flags=() k line
	[[ $threads != - ]] && flags=(--threads "$threads")
	echo "bench-amplify: $name" >&2
	k=$(timeout "$timeout_sec" "$bmc" prove --quiet --json --method amplify "${flags[@]}" "$file" 2>/dev/null |
		sed -n 's/.*"k": \([0-9]*\).*/\1/p' || true)
	line="| $name | ${k:--}"
	for c in $columns; do
		case $c in
		amplify) line+=" | $(cell --method amplify "${flags[@]}" "$file")" ;;
		1core) line+=" | $(cell --method amplify --cores 1 "${flags[@]}" "$file")" ;;
		gini) line+=" | $(cell --method amplify --solver gini "${flags[@]}" "$file")" ;;
		pdr) line+=" | $(cell --method pdr "${flags[@]}" "$file")" ;;
		esac
	done
	local before=-
	if [[ -n $k ]] && ((k > 1)); then
		local out
		out=$(timeout "$timeout_sec" "$bmc" prove --quiet --method amplify --max-rounds $((k - 1)) "${flags[@]}" "$file" 2>&1 || true)
		before="no CTI"
		[[ $out == *"counterexample to induction at K = $((k - 1))"* ]] && before=CTI
	fi
	echo "$line | $before | $pk | $pt |"
}

header() {
	local h="| program | K" s="|---|---"
	for c in $columns; do h+=" | ${c/1core/1 core}" && s+="|---"; done
	echo "$h | at K-1 | paper K | paper time |"
	echo "$s|---|---|---|"
}

if wanted fig12; then
echo "### Fig. 12: our programs"
echo
header
row "Bluetooth, 1 adder, 1 stopper (blue2)" examples/bluetooth_fixed.bpl adder=1,stopper=1 3 "32.44 s"
row "Dekker (dekkers)" examples/dekker.bpl - 3 "3.74 s"
row "lock/unlock, 2 threads (lock_unlock_K)" "$dir/lock_unlock2.bpl" - 4 "0.6 s"
row "lock/unlock, 3 threads (lock_unlock_3)" "$dir/lock_unlock3.bpl" - 3 "44.02 s"
row "Peterson (petersons)" examples/peterson_once.bpl - 3 "0.3 s"
row "Peterson in a loop (petersons_loop)" examples/peterson.bpl - 3 "6.05 s"
row "Fig. 5 (kind_fig5)" examples/kind_fig5.bpl - - -
row "Example 4.1 (kind_envelope)" examples/kind_envelope.bpl - - -
echo
fi
if wanted fig13a; then
echo "### Fig. 13(a): a handshake that pumps K"
echo
header
paper=("" "" "" "0.64 s" "1.90 s" "5.69 s" "19.57 s" "108.71 s")
for n in 3 4 5 6 7; do
	row "handshake$n" "$dir/handshake$n.bpl" - $((n + 1)) "${paper[$n]}"
done
echo
fi
if wanted fig13b; then
echo "### Fig. 13(b): mutual exclusion for 2..7 threads"
echo
header
paper=("" "" "0.03 s" "0.27 s" "2.17 s" "17.09 s" "132.24 s" "1011 s")
for n in 2 3 4 5 6 7; do
	row "flags$n" "$dir/flags$n.bpl" - 3 "${paper[$n]}"
done
echo
fi
if wanted bluetooth; then
echo "### The fixed Bluetooth driver"
echo
header
for a in 1 2 3; do
	for s in 1 2 3; do
		row "adder=$a,stopper=$s" examples/bluetooth_fixed.bpl "adder=$a,stopper=$s" - -
	done
done
fi
