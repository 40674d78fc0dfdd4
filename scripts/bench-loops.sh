#!/usr/bin/env bash
# bench-loops.sh: the table of looping programs of issue 13
# (docs/BENCHMARKS.md, "Looping programs"). Rows: the examples dekker,
# peterson, philosophers_trylock, permutation16 and permutation_late at 2, 4
# and 6 switches and rounds; Burns' mutual exclusion for 2 to 7 threads at 3
# rounds; the pump whose violation needs exactly K rounds and its safe variant
# at K rounds (K = 2..8). The generated programs come from
# scripts/loopprogs (internal/progen). Columns, each one run:
#
#   eager     bmc check --seq eager B prog   (exact: BMC, then PDR on loops)
#   prove     bmc prove B prog               (the interleaving product)
#   explicit  bmc check --engine explicit B prog
#   ABC pdr   berkeley-abc -c "read_aiger f.aig; pdr" on
#             bmc export --aiger --binary --seq eager B prog
#             (the system of the eager column; skipped when ABC is missing)
#
# Usage: make bench-loops   (builds bin/bmc first)
#    or: scripts/bench-loops.sh
#
# Options (environment variables; defaults in brackets):
#   BENCH_TIMEOUT   per-cell limit in seconds [30]
#   BENCH_GROUPS    any of: examples burns pumps [all three]
#   BENCH_BOUNDS    bounds of the example rows ["--switches 2" "--switches 4"
#                   "--switches 6" "-k 2" "-k 4" "-k 6", as a ;-list]
#   BENCH_SOLVER    solver of the eager and prove columns: gini or z3 [gini]
#   BMC             bmc binary [bin/bmc]
#   BENCH_TSV       raw numbers [/tmp/bench-loops.tsv]
#
# Worst case: 30 example rows + 6 + 14 = 50 rows, 4 columns, 30 s each:
# 100 min; the explicit cells end in well under a second.
#
# Markdown goes to stdout, progress to stderr. Cells: "1.2 s safe",
# "0.4 s VIOL", ">30 s" (timed out), "n/a (why)". The summary lines give
# the median ratio of the eager column to ABC's pdr over the rows both
# decided, and the rows where the eager column is within 10x of explicit.

set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

timeout_sec=${BENCH_TIMEOUT:-30}
groups=${BENCH_GROUPS:-examples burns pumps}
bounds=${BENCH_BOUNDS:---switches 2;--switches 4;--switches 6;-k 2;-k 4;-k 6}
solver=${BENCH_SOLVER:-gini}
bmc=${BMC:-bin/bmc}
tsv=${BENCH_TSV:-/tmp/bench-loops.tsv}

die() {
	echo "bench-loops: $*" >&2
	exit 2
}

[[ $timeout_sec =~ ^[0-9]+$ ]] && ((timeout_sec > 0)) || die "BENCH_TIMEOUT=$timeout_sec: want a positive number of seconds"
for g in $groups; do
	case $g in
	examples | burns | pumps) ;;
	*) die "BENCH_GROUPS: unknown group '$g' (examples, burns, pumps)" ;;
	esac
done
case $solver in gini | z3) ;; *) die "BENCH_SOLVER: '$solver' is not gini or z3" ;; esac
[[ -x $bmc ]] || die "$bmc is not an executable (run 'make build', or set BMC)"
command -v timeout >/dev/null || die "timeout (coreutils) is missing"
abc=$(command -v berkeley-abc || command -v abc || true)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-loops.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp "$bmc" "$tmp/bmc" # a rebuild during the run cannot mix two binaries
go run ./scripts/loopprogs "$tmp/progs"

# rows prints "file;bound" lines.
rows() {
	local g f b n k
	for g in $groups; do
		case $g in
		examples)
			for f in dekker peterson philosophers_trylock permutation16 permutation_late; do
				IFS=';' read -ra bs <<<"$bounds"
				for b in "${bs[@]}"; do
					echo "examples/$f.bpl;$b"
				done
			done
			;;
		burns)
			for n in 2 3 4 5 6 7; do
				echo "$tmp/progs/burns$n.bpl;-k 3"
			done
			;;
		pumps)
			for k in 2 3 4 5 6 7 8; do
				echo "$tmp/progs/pump$k.bpl;-k $k"
				echo "$tmp/progs/pump${k}_safe.bpl;-k $k"
			done
			;;
		esac
	done
}

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# run_cell NAME CMD...: runs CMD under the timeout; sets `cell` (Markdown)
# and `wall` (seconds, empty when it did not decide) and appends to the TSV.
cell= wall=
run_cell() {
	local name=$1
	shift
	local rc=0 t0 t1
	t0=$(now)
	timeout -k 5 $((timeout_sec + 5)) "$@" </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
	t1=$(now)
	local w out
	w=$(secs "$t0" "$t1")
	out=$(head -c 300 "$tmp/out" | head -n 1)
	wall=
	case $rc in
	0) cell="$w s safe" wall=$w ;;
	10) cell="$w s VIOL" wall=$w ;;
	3 | 124 | 137) cell=">$timeout_sec s" ;;
	*) cell="error $rc ($(head -n 1 "$tmp/err" | tr '|' '/'))" ;;
	esac
	printf '%s\t%s\t%s\t%s\t%s\n' "$row_name" "$name" "$rc" "$w" "${out//$'\t'/ }" >>"$tsv"
}

# abc_cell FILE BOUND: exports the eager sequentialization and runs ABC's pdr.
abc_cell() {
	local file=$1 bound=$2
	wall=
	if [[ -z $abc ]]; then
		cell="n/a (no ABC)"
		return
	fi
	# Word splitting of the bound is intended.
	# shellcheck disable=SC2086
	if ! "$tmp/bmc" export --aiger --binary --seq eager $bound "$file" >"$tmp/f.aig" 2>"$tmp/err"; then
		cell="n/a ($(head -n 1 "$tmp/err" | tr '|' '/'))"
		return
	fi
	local t0 t1 rc=0
	t0=$(now)
	timeout -k 5 "$timeout_sec" "$abc" -c "read_aiger $tmp/f.aig; pdr" >"$tmp/out" 2>&1 || rc=$?
	t1=$(now)
	local w
	w=$(secs "$t0" "$t1")
	if grep -q 'Property proved' "$tmp/out"; then
		cell="$w s safe" wall=$w
	elif grep -q 'was asserted' "$tmp/out"; then
		cell="$w s VIOL" wall=$w
	elif ((rc == 124 || rc == 137)); then
		cell=">$timeout_sec s"
	else
		cell="undecided ($w s)"
	fi
	printf '%s\t%s\t%s\t%s\t%s\n' "$row_name" abc-pdr "$rc" "$w" "$(grep -m 1 -E 'proved|asserted' "$tmp/out" || true)" >>"$tsv"
}

printf 'row\tcolumn\tstatus\twall_s\tmessage\n' >"$tsv"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- 2>/dev/null || commit+=-dirty
echo "Machine: $(nproc) CPUs, $(grep -m 1 '^model name' /proc/cpuinfo | sed 's/^[^:]*: *//'); $(date -u '+%Y-%m-%d %H:%M UTC'); commit $commit; solver $solver; timeout $timeout_sec s per cell; one run per cell."
[[ -n $abc ]] || echo "Note: berkeley-abc is not installed: the ABC column is skipped."
echo
echo "| program | bound | check --seq eager | prove | explicit | ABC pdr (eager) | eager / explicit |"
echo "|---|---|---|---|---|---|---|"

ratios_abc=() within10=0 decided=0 nrows=0
while IFS=';' read -r file bound; do
	row_name="$(basename "$file" .bpl) $bound"
	echo "bench-loops: $row_name" >&2
	# shellcheck disable=SC2086
	run_cell eager "$tmp/bmc" check --quiet --seq eager --solver "$solver" $bound --timeout "${timeout_sec}s" "$file"
	c_eager=$cell w_eager=$wall
	# shellcheck disable=SC2086
	run_cell prove "$tmp/bmc" prove --quiet --solver "$solver" $bound --timeout "${timeout_sec}s" "$file"
	c_prove=$cell
	# shellcheck disable=SC2086
	run_cell explicit "$tmp/bmc" check --quiet --engine explicit $bound --timeout "${timeout_sec}s" "$file"
	c_explicit=$cell w_explicit=$wall
	abc_cell "$file" "$bound"
	c_abc=$cell w_abc=$wall
	ratio=
	nrows=$((nrows + 1))
	if [[ -n $w_eager && -n $w_explicit ]]; then
		decided=$((decided + 1))
		ratio=$(awk -v a="$w_eager" -v b="$w_explicit" 'BEGIN { printf "%.0fx", a / (b < 0.01 ? 0.01 : b) }')
		awk -v a="$w_eager" -v b="$w_explicit" 'BEGIN { exit !(a <= 10 * (b < 0.01 ? 0.01 : b)) }' && within10=$((within10 + 1))
	fi
	if [[ -n $w_eager && -n $w_abc ]]; then
		ratios_abc+=("$(awk -v a="$w_eager" -v b="$w_abc" 'BEGIN { printf "%.3f", a / (b < 0.01 ? 0.01 : b) }')")
	fi
	echo "| $(basename "$file") | \`$bound\` | $c_eager | $c_prove | $c_explicit | $c_abc | ${ratio:--} |"
done < <(rows)

echo
if ((${#ratios_abc[@]} > 0)); then
	median=$(printf '%s\n' "${ratios_abc[@]}" | sort -g | awk '{ a[NR] = $1 } END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.2f", m }')
	echo "Eager column over ABC's pdr, median over the ${#ratios_abc[@]} rows both decided: ${median}x."
fi
echo "Eager column within 10x of explicit: $within10 of $nrows rows ($decided decided by both)."
