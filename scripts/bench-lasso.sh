#!/usr/bin/env bash
# bench-lasso.sh: the livelock table of issue 14 (docs/BENCHMARKS.md,
# "Livelocks"): the TryLock dining philosophers of
# mutant-fair-nontermination, Fig. 3(a), for N = 2..8 at --lasso 1,1 (the
# paper's K = 2; every N has a livelock), and the ordered variant (none
# under strong fairness). The programs come from scripts/loopprogs
# (internal/progen.Philosophers). Columns, each the median of BENCH_RUNS
# runs of the whole process:
#
#   gini      bmc check --lasso 1,1 prog               (the lasso translation)
#   z3        bmc check --lasso 1,1 --solver z3 prog
#   direct    bmc check --lasso 1,1 --seq direct prog  (the lasso on the
#             interleaving product; skipped when this bmc lacks it)
#   explicit  bmc check --lasso 1,1 --engine explicit prog
#   abc       bmc export --aiger --binary --liveness-outputs --lasso 1,1 prog,
#             then berkeley-abc -c "read_aiger f.aig; l2s -s; pdr" (the same
#             question as a justice property, through ABC's
#             liveness-to-safety; the time includes the export; "n/a"
#             when ABC is not installed)
#
# Usage: make bench-lasso   (builds bin/bmc first)
#    or: scripts/bench-lasso.sh
#
# Options (environment variables; defaults in brackets):
#   BENCH_TIMEOUT   per-run limit in seconds [60]
#   BENCH_RUNS      runs per cell, the median is shown [3]
#   BENCH_N         philosopher counts ["2 3 4 5 6 7 8"]
#   BMC             bmc binary [bin/bmc]
#   BENCH_COLUMNS   the columns to run, the others show "-"
#                   ["gini z3 direct explicit abc"]
#
# Markdown goes to stdout, progress to stderr. Cells: "0.31 s livelock",
# "1.2 s none", ">60 s", "unknown".

set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BMC=${BMC:-bin/bmc}
TIMEOUT=${BENCH_TIMEOUT:-60}
RUNS=${BENCH_RUNS:-3}
NS=${BENCH_N:-"2 3 4 5 6 7 8"}
COLUMNS=" ${BENCH_COLUMNS:-gini z3 direct explicit abc} "
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go run ./scripts/loopprogs "$dir"

direct=yes
if ! "$BMC" check --quiet --lasso 1,1 --seq direct "$dir/phil2.bpl" >/dev/null 2>&1; then
	case $? in 0|10) ;; *) direct=no ;; esac
fi

abc=$(command -v berkeley-abc || command -v abc || true)

# abc_cell FILE: the median time of RUNS exports and ABC runs, and ABC's
# verdict.
abc_cell() {
	local file=$1 times=() verdict=""
	[ -n "$abc" ] || { echo "n/a"; return; }
	for ((r = 0; r < RUNS; r++)); do
		local start end
		start=$(date +%s.%N)
		"$BMC" export --aiger --binary --liveness-outputs --lasso 1,1 "$file" >"$dir/f.aig"
		set +e
		timeout "$TIMEOUT" "$abc" -c "read_aiger $dir/f.aig; l2s -s; pdr" >"$dir/out" 2>&1
		local code=$?
		set -e
		end=$(date +%s.%N)
		if [ $code = 124 ]; then echo ">${TIMEOUT} s"; return; fi
		if grep -q "was asserted" "$dir/out"; then verdict=livelock
		elif grep -q "Property proved" "$dir/out"; then verdict=none
		else verdict=unknown; fi
		times+=("$(echo "$end - $start" | bc)")
	done
	printf '%.2f s %s\n' "$(median "${times[@]}")" "$verdict"
}

# median X...: the median of the numbers.
median() {
	printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

# cell FILE FLAGS...: the median time of RUNS runs and the verdict.
cell() {
	local file=$1
	shift
	local times=() verdict=""
	for ((r = 0; r < RUNS; r++)); do
		local start end code
		start=$(date +%s.%N)
		set +e
		"$BMC" check --quiet --timeout "${TIMEOUT}s" "$@" "$file" >"$dir/out" 2>/dev/null
		code=$?
		set -e
		end=$(date +%s.%N)
		case $code in
		10) verdict=livelock ;;
		0) verdict=none ;;
		3) if grep -q timeout "$dir/out"; then echo ">${TIMEOUT} s"; return; fi; verdict=unknown ;;
		*) echo "error (exit $code)"; return ;;
		esac
		times+=("$(echo "$end - $start" | bc)")
	done
	printf '%.2f s %s\n' "$(median "${times[@]}")" "$verdict"
}

echo "| N | variant | gini | z3 | direct | explicit | ABC l2s + pdr |"
echo "|---|---|---|---|---|---|---|"
for n in $NS; do
	for variant in trylock ordered; do
		file="$dir/phil$n.bpl"
		[ "$variant" = ordered ] && file="$dir/phil${n}_ordered.bpl"
		echo "phil $n $variant" >&2
		g=- z=- d=- e=- a=-
		[[ $COLUMNS == *" gini "* ]] && g=$(cell "$file" --lasso 1,1)
		[[ $COLUMNS == *" z3 "* ]] && z=$(cell "$file" --lasso 1,1 --solver z3)
		if [[ $COLUMNS == *" direct "* ]]; then
			d="n/a"
			[ "$direct" = yes ] && d=$(cell "$file" --lasso 1,1 --seq direct)
		fi
		[[ $COLUMNS == *" explicit "* ]] && e=$(cell "$file" --lasso 1,1 --engine explicit)
		[[ $COLUMNS == *" abc "* ]] && a=$(abc_cell "$file")
		echo "| $n | $variant | $g | $z | $d | $e | $a |"
	done
done
