#!/usr/bin/env bash
# bench-portfolio.sh: the portfolio table of issue 27 (docs/BENCHMARKS.md,
# "Bounded safety", "Proofs", "Livelocks"): bmc's default plan against each single engine, row by row.
# Rows:
#   bluetooth  examples/bluetooth.bpl (both bugs) and
#              examples/bluetooth_fixed.bpl, 1..3 adders x 1..3 stoppers,
#              --switches 6
#   burns      Burns' mutual exclusion, 2..7 threads, -k 3, safe and with a
#              bug (internal/progen.Burns, BurnsBuggy)
#   flags      a flag-based mutual exclusion, 2..7 threads, -k 3, safe and
#              with a bug (internal/progen.FlagMutex)
#   perm       examples/permutation_late.bpl with 4..20 bits, -k 2
#              (internal/progen.PermutationLate)
#   pump       the pump whose violation needs K rounds, K = 2..8, -k K
#   phil       the philosophers (trylock and ordered), N = 2..8,
#              --lasso 2,2 with strong fairness and with none
#   prove      bmc prove without a bound on each safe program above
# Columns, each the median wall time of BENCH_RUNS whole-process runs:
#   check rows:  default | --engine explicit | --seq lazy | --seq eager
#                (and --seq product --solver bdd on the generated programs)
#   lasso rows:  default | --seq eager (the lasso translation) |
#                --engine explicit | --seq direct
#   prove rows:  default | check --engine explicit (the exhaustive search)
#                | --method pdr | --method kind
# and the default over the best single engine of the row. The target:
# the default within 1.2x (or 0.1 s) of the best single engine, with the
# same verdict wherever both decide.
#
# Usage: make bench-portfolio   (builds bin/bmc first)
#    or: scripts/bench-portfolio.sh
#
# Options (environment variables; defaults in brackets):
#   BENCH_TIMEOUT  per-run limit in seconds [20]
#   BENCH_RUNS     runs per cell, the median reported [3]; a run that
#                  does not decide ends its cell
#   BENCH_GROUPS   any of: bluetooth burns flags perm pump phil prove [all]
#   BMC            bmc binary [bin/bmc]
#   BENCH_TSV      raw numbers, one line per run [/tmp/bench-portfolio.tsv]
#   BENCH_ROWS     a file of rows to run instead of the groups', one per
#                  line: KIND;FILE;FLAGS (KIND check, lasso or prove; a
#                  FILE under progs/ is a generated program)
#
# Markdown goes to stdout, progress to stderr. Cells: "1.23 s safe",
# "0.40 s VIOL" (a violation or a livelock), ">20 s" (no answer within the
# limit), "3: unknown" (the run's own limit), "error N".

set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

timeout_sec=${BENCH_TIMEOUT:-20}
runs=${BENCH_RUNS:-3}
groups=${BENCH_GROUPS:-bluetooth burns flags perm pump phil prove}
bmc=${BMC:-bin/bmc}
tsv=${BENCH_TSV:-/tmp/bench-portfolio.tsv}

die() {
	echo "bench-portfolio: $*" >&2
	exit 2
}

[[ $timeout_sec =~ ^[0-9]+$ ]] && ((timeout_sec > 0)) || die "BENCH_TIMEOUT=$timeout_sec: want a positive number of seconds"
[[ $runs =~ ^[0-9]+$ ]] && ((runs > 0)) || die "BENCH_RUNS=$runs: want a positive number"
for g in $groups; do
	case $g in
	bluetooth | burns | flags | perm | pump | phil | prove) ;;
	*) die "BENCH_GROUPS: unknown group '$g' (bluetooth burns flags perm pump phil prove)" ;;
	esac
done
[[ -x $bmc ]] || die "$bmc is not an executable (run 'make build', or set BMC)"
command -v timeout >/dev/null || die "timeout (coreutils) is missing"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-portfolio.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp "$bmc" "$tmp/bmc" # a rebuild during the run cannot mix two binaries
go run ./scripts/loopprogs "$tmp/progs"

# rows prints "kind;file;flags" lines: kind check, lasso or prove.
rows() {
	local g a s n
	if [[ -n ${BENCH_ROWS:-} ]]; then
		sed "s|;progs/|;$tmp/progs/|" "$BENCH_ROWS"
		return
	fi
	for g in $groups; do
		case $g in
		bluetooth)
			for f in bluetooth bluetooth_fixed; do
				for a in 1 2 3; do
					for s in 1 2 3; do
						echo "check;examples/$f.bpl;--switches 6 --threads adder=$a,stopper=$s"
					done
				done
			done
			;;
		burns | flags)
			for n in 2 3 4 5 6 7; do
				echo "check;$tmp/progs/$g$n.bpl;-k 3"
				echo "check;$tmp/progs/$g${n}_bug.bpl;-k 3"
			done
			;;
		perm)
			for n in 4 8 12 16 20; do
				echo "check;$tmp/progs/permutation${n}_late.bpl;-k 2"
			done
			;;
		pump)
			for n in 2 3 4 5 6 7 8; do
				echo "check;$tmp/progs/pump$n.bpl;-k $n"
			done
			;;
		phil)
			for n in 2 3 4 5 6 7 8; do
				for v in "" _ordered; do
					echo "lasso;$tmp/progs/phil$n$v.bpl;--lasso 2,2"
					echo "lasso;$tmp/progs/phil$n$v.bpl;--lasso 2,2 --fairness none"
				done
			done
			;;
		prove)
			for a in 1 2 3; do
				for s in 1 2 3; do
					echo "prove;examples/bluetooth_fixed.bpl;--threads adder=$a,stopper=$s"
				done
			done
			for n in 2 3 4 5 6 7; do
				echo "prove;$tmp/progs/burns$n.bpl;"
				echo "prove;$tmp/progs/flags$n.bpl;"
			done
			;;
		esac
	done
}

# shellcheck source=bench-common.sh
source scripts/bench-common.sh

# run_cell NAME CMD...: runs CMD up to $runs times under the timeout; sets
# `cell` (Markdown), `wall` (the median in seconds, empty when a run did
# not decide) and `verdict` (safe or VIOL), and appends to the TSV.
cell= wall= verdict=
run_cell() {
	local name=$1
	shift
	local times=() rc t0 t1 w i
	wall= verdict=
	for ((i = 0; i < runs; i++)); do
		rc=0
		t0=$(now)
		timeout -k 5 $((timeout_sec + 5)) "$@" </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
		t1=$(now)
		w=$(secs "$t0" "$t1")
		printf '%s\t%s\t%s\t%s\t%s\n' "$row_name" "$name" "$rc" "$w" "$(head -c 300 "$tmp/out" | tail -n 1 | tr '\t' ' ')" >>"$tsv"
		case $rc in
		0) verdict=safe ;;
		10) verdict=VIOL ;;
		3 | 124 | 137)
			cell=">$timeout_sec s"
			[[ $rc == 3 ]] && cell="$w s unknown"
			return
			;;
		*)
			cell="error $rc ($(head -n 1 "$tmp/err" | tr '|' '/' | cut -c1-60))"
			return
			;;
		esac
		times+=("$w")
	done
	wall=$(median "${times[@]}")
	cell="$wall s $verdict"
}

printf 'row\tcolumn\tstatus\twall_s\tlast line\n' >"$tsv"
machine_line "$runs" "$timeout_sec"
echo
echo "| program | question | default | single engines | best | default / best |"
echo "|---|---|---|---|---|---|"

nrows=0 within=0 disagree=0 missed=()
while IFS=';' read -r kind file flags; do
	prog=$(basename "$file" .bpl)
	row_name="$prog $kind $flags"
	echo "bench-portfolio: $row_name" >&2
	case $kind in
	check)
		cmd=(check)
		singles=("explicit:--engine explicit" "lazy:--seq lazy" "eager:--seq eager")
		# The generated programs have no calls or locks: the product
		# encoding's least model is a single engine of theirs too.
		[[ $file == "$tmp/progs/"* ]] && singles+=("product:--seq product --solver bdd")
		;;
	lasso)
		cmd=(check)
		singles=("translation:--seq eager" "explicit:--engine explicit" "direct:--seq direct")
		;;
	prove)
		cmd=(prove)
		singles=("explicit:" "pdr:--method pdr" "kind:--method kind")
		;;
	esac
	# Word splitting of the flags is intended.
	# shellcheck disable=SC2086
	run_cell default "$tmp/bmc" "${cmd[@]}" --quiet $flags --timeout "${timeout_sec}s" "$file"
	c_default=$cell w_default=$wall v_default=$verdict
	best= best_name= cells=() verdicts=()
	for s in "${singles[@]}"; do
		name=${s%%:*} extra=${s#*:}
		c=("${cmd[@]}")
		[[ $kind == prove && $name == explicit ]] && c=(check --engine explicit)
		# shellcheck disable=SC2086
		run_cell "$name" "$tmp/bmc" "${c[@]}" --quiet $flags $extra --timeout "${timeout_sec}s" "$file"
		cells+=("$name $cell")
		if [[ -n $wall ]]; then
			verdicts+=("$verdict")
			if [[ -z $best ]] || awk -v a="$wall" -v b="$best" 'BEGIN { exit !(a < b) }'; then
				best=$wall best_name=$name
			fi
		fi
	done
	nrows=$((nrows + 1))
	ratio=-
	ok=no
	if [[ -z $best ]]; then
		ok=yes # no single engine decides: nothing to be within
	elif [[ -n $w_default ]]; then
		ratio=$(awk -v a="$w_default" -v b="$best" 'BEGIN { printf "%.2fx", a / (b < 0.01 ? 0.01 : b) }')
		awk -v a="$w_default" -v b="$best" 'BEGIN { exit !(a <= 1.2 * b || a <= b + 0.1) }' && ok=yes
	fi
	for v in "${verdicts[@]}"; do
		if [[ -n $v_default && $v != "$v_default" ]]; then
			disagree=$((disagree + 1))
			ok=no
		fi
	done
	if [[ $ok == yes ]]; then
		within=$((within + 1))
	else
		missed+=("$row_name")
	fi
	q=$flags
	[[ $kind == prove ]] && q="prove ${flags}"
	echo "| $prog | \`${q}\` | $c_default | $(
		IFS=';'
		echo "${cells[*]}" | sed 's/;/; /g'
	) | ${best_name:--} ${best:+$best s} | $ratio |"
done < <(rows)

echo
echo "Default within 1.2x (or 0.1 s) of the best single engine, with its verdict: $within of $nrows rows; verdicts that disagree: $disagree."
for r in "${missed[@]}"; do
	echo "- missed: $r"
done
