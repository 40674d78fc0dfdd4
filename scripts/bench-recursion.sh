#!/usr/bin/env bash
# bench-recursion.sh: the table of docs/BENCHMARKS.md "Recursion": the
# recursive programs of internal/progen.Recursion, which count their
# nesting in n bits and fail at 2^n - 1 nested calls (a violation that
# needs a stack of about 2^n frames), for n = 4..10 and each shape (self:
# the recursion counts itself; helper: it calls inc(); mutual: even() and
# odd() call each other and inc()), sequential and inside one of two
# threads at -k 2. Columns: the default plan, each summary engine alone
# (summaries+gini, our Spacer; summaries+bdd, the least model on decision
# diagrams), and Moped 1.0.15 on `bmc seq --eager -k K --for moped` (K = 1
# for a sequential program), when it is installed (on the PATH, or named
# by MOPED); otherwise its column says so. Nothing of Moped is in this
# repository (docs/USAGE.md, "Comparing with Moped", says how to build it).
#
# Usage: make bench-recursion      (builds bin/bmc first)
#    or: scripts/bench-recursion.sh
#
# Markdown on stdout, progress on stderr, raw numbers in BENCH_TSV. A cell
# is the median wall time of BENCH_RUNS runs and the largest peak memory
# (GNU time's maximum resident size), "VIOL" where a violation was found
# (every row has one), ">T" where a run did not answer within the timeout.
#
# Options (environment variables; defaults in brackets):
#   BENCH_BITS      counter widths [4 5 6 7 8 9 10]
#   BENCH_SHAPES    shapes [self helper mutual]
#   BENCH_TIMEOUT   seconds a run [60]
#   BENCH_RUNS      runs a cell, the median is taken [3]
#   BMC             bmc binary [bin/bmc]
#   MOPED           Moped executable [moped on the PATH]
#   BENCH_TSV       [/tmp/bench-recursion.tsv]

set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

bits=${BENCH_BITS:-4 5 6 7 8 9 10}
shapes=${BENCH_SHAPES:-self helper mutual}
timeout_sec=${BENCH_TIMEOUT:-60}
runs=${BENCH_RUNS:-3}
bmc=${BMC:-bin/bmc}
tsv=${BENCH_TSV:-/tmp/bench-recursion.tsv}
die() { echo "bench-recursion.sh: $*" >&2; exit 2; }

[[ $timeout_sec =~ ^[0-9]+$ ]] && ((timeout_sec > 0)) || die "BENCH_TIMEOUT=$timeout_sec: want a positive number of seconds"
[[ $runs =~ ^[0-9]+$ ]] && ((runs > 0)) || die "BENCH_RUNS=$runs: want a positive number"
[[ -x $bmc ]] || die "$bmc is not an executable (run 'make build', or set BMC)"
[[ -x /usr/bin/time ]] || die "GNU time (/usr/bin/time, Debian's time) is missing"
moped=${MOPED:-$(command -v moped || true)}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-recursion.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp "$bmc" "$tmp/bmc" # a rebuild during the run cannot mix two binaries
go run ./scripts/loopprogs "$tmp/progs"
: >"$tsv"

# run_cell CMD...: runs CMD $runs times under the timeout and prints the
# cell: median wall seconds, largest peak, the verdict (VIOL where the
# command's output shows a violation: bmc's exit 10, Moped's YES.).
run_cell() {
	local walls=() peak=0 verdict="" i out code wall kb
	for ((i = 0; i < runs; i++)); do
		set +e
		/usr/bin/time -o "$tmp/time" -f "TIME %e %M" timeout "$timeout_sec" "$@" >"$tmp/out" 2>&1
		code=$?
		set -e
		out=$(grep '^TIME' "$tmp/time" || true)
		if ((code == 124)) || [[ -z $out ]]; then
			echo ">${timeout_sec} s"
			return
		fi
		read -r _ wall kb <<<"$out"
		walls+=("$wall")
		((kb > peak)) && peak=$kb
		if ((code == 10)) || grep -q '^YES' "$tmp/out"; then
			verdict=VIOL
		elif ((code == 0)) && grep -q '^NO' "$tmp/out"; then
			verdict=safe
		elif ((code == 0)); then
			verdict=safe
		else
			verdict="exit $code"
		fi
	done
	local median
	median=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
	printf '%s s %s, %d MB\n' "$median" "$verdict" $((peak / 1024))
}

echo "| program | n | frames | default | summaries+gini | summaries+bdd | Moped |"
echo "|---|---|---|---|---|---|---|"
for shape in $shapes; do
	for n in $bits; do
		for kind in seq threads; do
			name=rec_$shape$n.bpl
			k=1
			flags=()
			if [[ $kind == threads ]]; then
				name=rec_${shape}${n}_threads.bpl
				k=2
				flags=(-k 2)
			fi
			prog=$tmp/progs/$name
			[[ -f $prog ]] || die "$name was not generated"
			frames=$(( (1 << n) + 1 ))
			[[ $shape == self ]] && frames=$((1 << n))
			echo "bench-recursion: $name" >&2
			def=$(run_cell "$tmp/bmc" check --quiet "${flags[@]}" "$prog")
			gini=$(run_cell "$tmp/bmc" check --quiet --engine summaries --solver gini "${flags[@]}" "$prog")
			bdd=$(run_cell "$tmp/bmc" check --quiet --engine summaries --solver bdd "${flags[@]}" "$prog")
			mop="not installed"
			if [[ -n $moped ]]; then
				"$tmp/bmc" seq --eager -k "$k" --for moped -o "$tmp/prog.bp" "$prog" 2>/dev/null
				mop=$(run_cell "$moped" -b -r -s0 "$tmp/prog.bp" error)
			fi
			label=$shape
			[[ $kind == threads ]] && label="$shape, in a thread, -k 2"
			echo "| $label | $n | $frames | $def | $gini | $bdd | $mop |"
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$shape" "$kind" "$n" "$def" "$gini" "$bdd" "$mop" >>"$tsv"
		done
	done
done
