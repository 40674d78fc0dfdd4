#!/usr/bin/env bash
# bench-scale.sh: the scaling table of issue 55 (docs/BENCHMARKS.md,
# "Twice the threads"): the portfolio's families one size up, the
# default plan's time and peak memory at each size, and how the time
# grows per added thread.
# Rows (FAMILY;SIZE;KIND;FILE;FLAGS):
#   phil       trylock philosophers (a livelock) and ordered ones (none),
#              N = 8, 10, 12, 16, --lasso 2,2 --fairness strong
#   bluetooth  examples/bluetooth_fixed.bpl, adders x stoppers 3x3, 4x4,
#              4x5, 5x4, 5x5, --switches 6, and bmc prove on each
#   burns      Burns' protocol, 7..10 threads, -k 3 (safe and with a
#              bug) and bmc prove on the safe one
#   flags      the flags-based mutual exclusion, 8..12 threads, -k 3,
#              safe and with a bug
#   safestack  Getafix's SafeStack programs of ../shared/bench, -k 4
# Columns: the default's median wall time over BENCH_RUNS runs, its
# verdict, its peak memory (the largest resident set of the command and
# its engine processes, GNU time's maximum), and the growth per added
# thread: (t(n) / t(m)) ^ (1 / (n - m)) against the family's previous
# decided size m of the same question (for bluetooth, the threads are
# adders + stoppers). With BENCH_SINGLES=1 each single engine of the row
# gets a column of its own (time and memory), to show where the time
# goes.
#
# Usage: make bench-scale   (builds bin/bmc first)
#    or: scripts/bench-scale.sh
#
# Options (environment variables; defaults in brackets):
#   BENCH_TIMEOUT  per-run limit in seconds [60]
#   BENCH_RUNS     runs per cell, the median reported [3]; a run that
#                  does not decide ends its cell
#   BENCH_GROUPS   any of: phil bluetooth burns flags safestack [all]
#   BENCH_SINGLES  1: also each single engine of the row [0]
#   BMC            bmc binary [bin/bmc]
#   BENCH_TSV      raw numbers, one line per run [/tmp/bench-scale.tsv]
#
# Markdown goes to stdout, progress to stderr. Cells: "1.23 s safe, 0.4 GB",
# "0.40 s VIOL, ..." (a violation or a livelock), ">60 s, ..." (no answer
# within the limit), "59.12 s unknown, ..." (the run's own limit),
# "error N".

set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

timeout_sec=${BENCH_TIMEOUT:-60}
runs=${BENCH_RUNS:-3}
groups=${BENCH_GROUPS:-phil bluetooth burns flags safestack}
singles_on=${BENCH_SINGLES:-0}
bmc=${BMC:-bin/bmc}
tsv=${BENCH_TSV:-/tmp/bench-scale.tsv}
bench=../shared/bench/getafix-trucnguyenlam/SafeStack

die() {
	echo "bench-scale: $*" >&2
	exit 2
}

[[ $timeout_sec =~ ^[0-9]+$ ]] && ((timeout_sec > 0)) || die "BENCH_TIMEOUT=$timeout_sec: want a positive number of seconds"
[[ $runs =~ ^[0-9]+$ ]] && ((runs > 0)) || die "BENCH_RUNS=$runs: want a positive number"
for g in $groups; do
	case $g in
	phil | bluetooth | burns | flags | safestack) ;;
	*) die "BENCH_GROUPS: unknown group '$g' (phil bluetooth burns flags safestack)" ;;
	esac
done
[[ -x $bmc ]] || die "$bmc is not an executable (run 'make build', or set BMC)"
command -v timeout >/dev/null || die "timeout (coreutils) is missing"
[[ -x /usr/bin/time ]] || die "/usr/bin/time (GNU time, Debian's package time) is missing"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-scale.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp "$bmc" "$tmp/bmc" # a rebuild during the run cannot mix two binaries
go run ./scripts/loopprogs "$tmp/progs"

# rows prints "family;size;kind;file;flags" lines: kind check, lasso or
# prove; size the number of threads.
rows() {
	local g n a s f
	for g in $groups; do
		case $g in
		phil)
			for v in "" _ordered; do
				for n in 8 10 12 16; do
					echo "phil$v;$n;lasso;$tmp/progs/phil$n$v.bpl;--lasso 2,2 --fairness strong"
				done
			done
			;;
		bluetooth)
			for k in check prove; do
				for a in "3 3" "4 4" "4 5" "5 4" "5 5"; do
					read -r a s <<<"$a"
					f="--threads adder=$a,stopper=$s"
					[[ $k == check ]] && f="--switches 6 $f"
					echo "bluetooth_fixed;$((a + s));$k;examples/bluetooth_fixed.bpl;$f"
				done
			done
			;;
		burns)
			for v in "" _bug; do
				for n in 7 8 9 10; do
					echo "burns$v;$n;check;$tmp/progs/burns$n$v.bpl;-k 3"
				done
			done
			for n in 7 8 9 10; do
				echo "burns;$n;prove;$tmp/progs/burns$n.bpl;"
			done
			;;
		flags)
			for v in "" _bug; do
				for n in 8 9 10 11 12; do
					echo "flags$v;$n;check;$tmp/progs/flags$n$v.bpl;-k 3"
				done
			done
			;;
		safestack)
			[[ -d $bench ]] || die "$bench is missing (the shared benchmarks)"
			for f in old-SafeStack_seqcst_forCSEQ_twoforloop SafeStack_seqcst_forCSEQ_underapprox_safe \
				SafeStack_seqcst_forCSEQ_inlined_unrolled_underapprox_safe_freelocal \
				SafeStack_seqcst_forCSEQ_underapprox old-SafeStack_seqcst_forCSEQ_goto; do
				echo "$f;3;check;$bench/$f.bp;-k 4"
			done
			;;
		esac
	done
}

# shellcheck source=bench-common.sh
source scripts/bench-common.sh

# run_cell NAME CMD...: runs CMD up to $runs times under the timeout; sets
# `cell` (Markdown), `wall` (the median in seconds, empty when a run did
# not decide), `verdict` (safe or VIOL) and `mem` (the largest peak
# resident set of the runs, GB), and appends to the TSV.
cell= wall= verdict= mem=
run_cell() {
	local name=$1
	shift
	local times=() rc t0 t1 w i kb peak=0
	wall= verdict= mem=
	for ((i = 0; i < runs; i++)); do
		rc=0
		t0=$(now)
		/usr/bin/time -f %M -o "$tmp/mem" timeout -k 5 $((timeout_sec + 5)) "$@" </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?
		t1=$(now)
		w=$(secs "$t0" "$t1")
		kb=$(tail -n 1 "$tmp/mem")
		[[ $kb =~ ^[0-9]+$ ]] || kb=0
		((kb > peak)) && peak=$kb
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$row_name" "$name" "$rc" "$w" "$kb" "$(head -c 300 "$tmp/out" | tail -n 1 | tr '\t' ' ')" >>"$tsv"
		mem=$(awk -v k="$peak" 'BEGIN { printf "%.1f", k / 1048576 }')
		case $rc in
		0) verdict=safe ;;
		10) verdict=VIOL ;;
		3 | 124 | 137)
			cell=">$timeout_sec s, $mem GB"
			[[ $rc == 3 ]] && cell="$(printf '%.2f' "$w") s unknown, $mem GB"
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
	cell="$wall s $verdict, $mem GB"
}

printf 'row\tcolumn\tstatus\twall_s\tpeak_kb\tlast line\n' >"$tsv"
machine_line "$runs" "$timeout_sec"
echo
if [[ $singles_on == 1 ]]; then
	echo "| program | threads | question | default | growth per thread | single engines |"
	echo "|---|---|---|---|---|---|"
else
	echo "| program | threads | question | default | growth per thread |"
	echo "|---|---|---|---|---|"
fi

nrows=0 under10=0 prev_key= prev_n= prev_wall=
while IFS=';' read -r family n kind file flags; do
	row_name="$family $n $kind $flags"
	echo "bench-scale: $row_name" >&2
	case $kind in
	check) cmd=(check) singles=("explicit:--engine explicit" "lazy:--seq lazy" "eager:--seq eager") ;;
	lasso) cmd=(check) singles=("translation:--seq eager" "explicit:--engine explicit" "direct:--seq direct") ;;
	prove) cmd=(prove) singles=("explicit:" "pdr:--method pdr" "kind:--method kind") ;;
	esac
	# Word splitting of the flags is intended.
	# shellcheck disable=SC2086
	run_cell default "$tmp/bmc" "${cmd[@]}" --quiet $flags --timeout "${timeout_sec}s" "$file"
	growth=-
	key="$family $kind"
	if [[ -n $wall && $key == "$prev_key" && -n $prev_wall && $n != "$prev_n" ]]; then
		growth=$(awk -v a="$prev_wall" -v b="$wall" -v m="$prev_n" -v n="$n" \
			'BEGIN { if (a < 0.05) a = 0.05; printf "%.2fx", exp(log(b / a) / (n - m)) }')
	fi
	if [[ $key != "$prev_key" || -n $wall ]]; then
		prev_key=$key prev_n=$n prev_wall=$wall
	fi
	nrows=$((nrows + 1))
	[[ -n $wall ]] && awk -v a="$wall" 'BEGIN { exit !(a < 10) }' && under10=$((under10 + 1))
	q=$flags
	[[ $kind == prove ]] && q="prove ${flags}"
	line="| $(basename "$file") | $n | \`${q% }\` | $cell | $growth |"
	if [[ $singles_on == 1 ]]; then
		cells=()
		for s in "${singles[@]}"; do
			name=${s%%:*} extra=${s#*:}
			c=("${cmd[@]}")
			[[ $kind == prove && $name == explicit ]] && c=(check --engine explicit)
			# shellcheck disable=SC2086
			run_cell "$name" "$tmp/bmc" "${c[@]}" --quiet $flags $extra --timeout "${timeout_sec}s" "$file"
			cells+=("$name $cell")
		done
		line+=" $(
			IFS=';'
			echo "${cells[*]}" | sed 's/;/; /g'
		) |"
	fi
	echo "$line"
done < <(rows)

echo
echo "Decided by the default within 10 s: $under10 of $nrows rows."
