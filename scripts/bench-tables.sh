#!/usr/bin/env bash
# bench-tables.sh: measure the tables of issue 4 (docs/BENCHMARKS.md,
# "Bounded safety"): the Bluetooth driver (Fig. 5 of the
# lazy-sequentialization paper, /work/shared/papers/lazy-sequentialization-cav09*)
# and the 16-bit permutation program (Table 1 of the same paper), for every
# sequentialization (eager, lazy, direct) and solver (gini, z3) of the bmc
# engine, with the explicit engine as the reference column.
#
# Usage: make bench-tables          (builds bin/bmc first)
#    or: scripts/bench-tables.sh    (from anywhere; runs in the repository root)
#
# Markdown tables go to stdout, progress lines to stderr, raw numbers to a TSV
# file. Each cell is one run of
#   bmc check --quiet --seq M --solver S --switches N [--threads ...] --timeout T prog
# (or --engine explicit instead of --seq/--solver), under
#   /usr/bin/time -f '%e %M' timeout -k 5 T+5 ...
# so a run that ignores its own --timeout is terminated 5 s after T (then
# killed 5 s later).
#
# Worst case of a full run with the defaults: 24 Bluetooth rows (4 thread
# configurations x 6 switch bounds) + 3 permutation rows = 27 rows, times
# 7 columns (3 sequentializations x 2 solvers + explicit) = 189 cells; at
# 60 s per cell (+5 s safety net) that is 189 x 65 s = 12,285 s, about
# 3 h 25 min. The explicit cells end in well under a second; if every bmc
# cell times out, as most did in November 2026, that is 27 x 6 x 60 s =
# 2 h 42 min. Do not run it on a loaded shared machine.
#
# Options (environment variables; defaults in brackets):
#   BENCH_PROGRAMS              programs, any of: bluetooth permutation [both]
#   BENCH_METHODS               columns, any of: eager lazy direct explicit [all four]
#   BENCH_SOLVERS               solvers for eager/lazy/direct: gini z3 [both];
#                               z3 is dropped when the binary has no Z3
#   BENCH_TIMEOUT               per-cell limit: N, Ns, Nm or Nh [60s]
#   BMC                         bmc binary, relative to the repository root or
#                               absolute [bin/bmc]
#   BENCH_TSV                   raw numbers, tab-separated [/tmp/bench-tables.tsv]
#   BENCH_BLUETOOTH_THREADS     adder,stopper pairs [1,1 2,1 1,2 2,2]
#   BENCH_BLUETOOTH_SWITCHES    switch bounds [1 2 3 4 5 6]
#   BENCH_PERMUTATION_SWITCHES  switch bounds [1 2 3]
#   BENCH_BMC_FLAGS             extra flags for the bmc columns only, e.g.
#                               "--max-steps 30 --depth 3" [none]
#   BENCH_MEMORY                1: also show peak memory (MB) in the cells [0]
#
# Cells: "3.2 s safe" (exit 0: no violation within the bounds), "0.4 s VIOL"
# (exit 10: violation found), ">60 s" (exit 3 with a timeout, or killed by
# the safety net; the bmc bound reached is added when bmc reports it),
# "1.0 s unknown (reason)" (exit 3 for another limit), "n/a (message)" (exit 2,
# usage error, e.g. "--seq direct is not available yet"), "error N (message)"
# for any other exit status.
#
# TSV columns: program threads switches method solver status wall_s peak_kb
# timeout_s message (the first line of stdout, or of stderr when stdout is empty).

set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

programs=${BENCH_PROGRAMS:-bluetooth permutation}
methods=${BENCH_METHODS:-eager lazy direct explicit}
solvers=${BENCH_SOLVERS:-gini z3}
timeout_arg=${BENCH_TIMEOUT:-60s}
bmc=${BMC:-bin/bmc}
tsv=${BENCH_TSV:-/tmp/bench-tables.tsv}
bt_threads=${BENCH_BLUETOOTH_THREADS:-1,1 2,1 1,2 2,2}
bt_switches=${BENCH_BLUETOOTH_SWITCHES:-1 2 3 4 5 6}
perm_switches=${BENCH_PERMUTATION_SWITCHES:-1 2 3}
bmc_flags=${BENCH_BMC_FLAGS:-}
show_memory=${BENCH_MEMORY:-0}
grace=5 # seconds after the per-cell timeout before the safety net fires

die() {
	echo "bench-tables: $*" >&2
	exit 2
}

# --- option checks ----------------------------------------------------------

if [[ $timeout_arg =~ ^([0-9]+)(s|m|h)?$ ]]; then
	timeout_sec=${BASH_REMATCH[1]}
	case ${BASH_REMATCH[2]} in
	m) timeout_sec=$((timeout_sec * 60)) ;;
	h) timeout_sec=$((timeout_sec * 3600)) ;;
	esac
else
	die "BENCH_TIMEOUT=$timeout_arg: want a whole number of seconds, minutes or hours (60, 60s, 2m, 1h)"
fi
((timeout_sec > 0)) || die "BENCH_TIMEOUT must be positive"

for p in $programs; do
	case $p in
	bluetooth | permutation) ;;
	*) die "BENCH_PROGRAMS: unknown program '$p' (bluetooth, permutation)" ;;
	esac
done
for m in $methods; do
	case $m in
	eager | lazy | direct | explicit) ;;
	*) die "BENCH_METHODS: unknown method '$m' (eager, lazy, direct, explicit)" ;;
	esac
done
for s in $solvers; do
	case $s in
	gini | z3) ;;
	*) die "BENCH_SOLVERS: unknown solver '$s' (gini, z3)" ;;
	esac
done
for ts in $bt_threads; do
	[[ $ts =~ ^[0-9]+,[0-9]+$ ]] || die "BENCH_BLUETOOTH_THREADS: '$ts' is not adder,stopper"
done
for n in $bt_switches $perm_switches; do
	[[ $n =~ ^[0-9]+$ ]] || die "switch bound '$n' is not a number"
done

[[ -x $bmc ]] || die "$bmc is not an executable (run 'make build', or set BMC)"
[[ -x /usr/bin/time ]] || die "/usr/bin/time is missing (Debian package: time)"
command -v timeout >/dev/null || die "timeout (coreutils) is missing"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-tables.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Run a private copy, so that a rebuild of $bmc during the run (other work in
# the same tree) cannot mix two binaries in one table.
bmc_run=$tmp/bmc
cp "$bmc" "$bmc_run"

# --- Z3 probe: drop the z3 columns when this binary has no Z3 -----------------

notes=()
if [[ " $solvers " == *" z3 "* ]]; then
	cat >"$tmp/probe.bpl" <<'EOF'
decl x;

void main()
begin
  x := T;
  assert(x);
  return;
end
EOF
	probe_rc=0
	timeout -k 5 20 "$bmc_run" check --quiet --engine bmc --solver z3 --max-steps 2 \
		--timeout 10s "$tmp/probe.bpl" </dev/null >"$tmp/probe.out" 2>"$tmp/probe.err" || probe_rc=$?
	if ((probe_rc == 2)) && grep -qi z3 "$tmp/probe.err"; then
		why=$(head -n 1 "$tmp/probe.err")
		echo "bench-tables: skipping the z3 columns: $why" >&2
		notes+=("z3 columns skipped: ${why#bmc check: }")
		kept=
		for s in $solvers; do
			[[ $s == z3 ]] || kept+="$s "
		done
		solvers=${kept% }
	elif ((probe_rc != 0)); then
		echo "bench-tables: warning: Z3 probe ended with exit status $probe_rc: $(head -n 1 "$tmp/probe.err")" >&2
	fi
fi

# --- columns ------------------------------------------------------------------

columns=() # "method/solver", or "explicit"
for m in $methods; do
	if [[ $m == explicit ]]; then
		columns+=(explicit)
	else
		for s in $solvers; do
			columns+=("$m/$s")
		done
	fi
done
((${#columns[@]} > 0)) || die "no columns left (BENCH_METHODS=$methods, solvers: ${solvers:-none})"

# --- rows -----------------------------------------------------------------------

# rows_of PROGRAM prints one line per row: "threads-flag-or-dash switches".
rows_of() {
	case $1 in
	bluetooth)
		local ts n
		for ts in $bt_threads; do
			for n in $bt_switches; do
				echo "adder=${ts%,*},stopper=${ts#*,} $n"
			done
		done
		;;
	permutation)
		# permutation16.bpl runs thread1 and thread2 once each: no --threads.
		local n
		for n in $perm_switches; do
			echo "- $n"
		done
		;;
	esac
}

file_of() {
	case $1 in
	bluetooth) echo examples/bluetooth.bpl ;;
	permutation) echo examples/permutation16.bpl ;;
	esac
}

total_cells=0
for p in $programs; do
	nrows=$(rows_of "$p" | wc -l)
	total_cells=$((total_cells + nrows * ${#columns[@]}))
done
worst=$((total_cells * (timeout_sec + grace)))
printf 'bench-tables: %d cells, timeout %d s each; worst case %d s (%d h %02d min)\n' \
	"$total_cells" "$timeout_sec" "$worst" $((worst / 3600)) $((worst % 3600 / 60)) >&2

# --- provenance -------------------------------------------------------------------

cpu=$(grep -m 1 '^model name' /proc/cpuinfo 2>/dev/null | sed 's/^[^:]*: *//' || true)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [[ $commit != unknown ]] && ! git diff --quiet HEAD -- 2>/dev/null; then
	commit+=-dirty
fi
machine="$(nproc) CPUs, ${cpu:-unknown CPU}"
when=$(date -u '+%Y-%m-%d %H:%M UTC')

# --- one cell -----------------------------------------------------------------------

# md_escape TEXT: make TEXT safe inside a Markdown table cell.
md_escape() {
	local s=${1//|/\\|}
	printf '%s' "${s//$'\t'/ }"
}

# fmt_secs SECONDS: "0.04" for under a second, else one decimal.
fmt_secs() {
	awk -v t="$1" 'BEGIN { if (t + 0 < 1) printf "%.2f", t; else printf "%.1f", t }'
}

# run_cell PROGRAM FILE THREADS SWITCHES COLUMN: run one cell, append a TSV
# line, and set the global `cell` to the Markdown text.
cell=
run_cell() {
	local prog=$1 file=$2 threads=$3 switches=$4 col=$5
	local method solver args=()
	if [[ $col == explicit ]]; then
		method=explicit solver=-
		args=(--engine explicit)
	else
		method=${col%/*} solver=${col#*/}
		args=(--seq "$method" --solver "$solver")
		# Word splitting of the extra flags is intended.
		# shellcheck disable=SC2206
		[[ -z $bmc_flags ]] || args+=($bmc_flags)
	fi
	args+=(--switches "$switches")
	[[ $threads == - ]] || args+=(--threads "$threads")
	args+=(--timeout "${timeout_sec}s" "$file")

	local rc=0
	/usr/bin/time -o "$tmp/time" -f '%e %M' \
		timeout -k "$grace" $((timeout_sec + grace)) \
		"$bmc_run" check --quiet "${args[@]}" </dev/null >"$tmp/out" 2>"$tmp/err" || rc=$?

	local wall='?' mem='?' line
	line=$(tail -n 1 "$tmp/time" 2>/dev/null || true)
	if [[ $line =~ ^([0-9.]+)\ ([0-9]+)$ ]]; then
		wall=${BASH_REMATCH[1]} mem=${BASH_REMATCH[2]}
	fi
	local out err msg
	out=$(head -n 1 "$tmp/out" 2>/dev/null || true)
	err=$(head -n 1 "$tmp/err" 2>/dev/null || true)
	msg=${out:-$err}

	local secs=$wall
	[[ $wall == '?' ]] || secs="$(fmt_secs "$wall") s"
	local extra=
	if [[ $show_memory == 1 && $mem != '?' ]]; then
		extra=", $(((mem + 512) / 1024)) MB"
	fi
	case $rc in
	0) cell="$secs$extra safe" ;;
	10) cell="$secs$extra VIOL" ;;
	3)
		if [[ $out == *timeout* ]]; then
			cell=">$timeout_sec s"
			if [[ $out =~ timeout\ at\ bound\ ([0-9]+) ]]; then
				cell+=" (bound ${BASH_REMATCH[1]})"
			fi
		else
			local reason=${out#*incomplete: }
			reason=${reason%% (*}
			cell="$secs$extra unknown ($(md_escape "$reason"))"
		fi
		;;
	2) cell="n/a ($(md_escape "${err#bmc check: }"))" ;;
	124 | 137) cell=">$timeout_sec s (killed)" ;;
	*) cell="error $rc ($(md_escape "${err#bmc check: }"))" ;;
	esac

	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
		"$prog" "$threads" "$switches" "$method" "$solver" "$rc" "$wall" "$mem" \
		"$timeout_sec" "${msg//$'\t'/ }" >>"$tsv"
}

# --- tables -----------------------------------------------------------------------

printf 'program\tthreads\tswitches\tmethod\tsolver\tstatus\twall_s\tpeak_kb\ttimeout_s\tmessage\n' >"$tsv"

echo "Machine: $machine; $when; commit $commit; $bmc; timeout $timeout_sec s per cell."
for note in "${notes[@]+"${notes[@]}"}"; do
	echo "Note: $note."
done
echo
echo "Cells: wall time and verdict within the bounds (safe = no violation, VIOL = violation found;"
echo "for the bmc columns the bounds include --max-steps, 50 unless BENCH_BMC_FLAGS sets it);"
echo ">$timeout_sec s = timed out (in parentheses the step bound bmc had reached); n/a = not available."
if [[ $bmc_flags != "" ]]; then
	echo "Extra flags for the bmc columns: \`$bmc_flags\`."
fi

done_cells=0
for p in $programs; do
	file=$(file_of "$p")
	echo
	echo "### $file"
	echo
	header="| threads | switches |"
	rule="|---|---|"
	for col in "${columns[@]}"; do
		header+=" $col |"
		rule+="---|"
	done
	echo "$header"
	echo "$rule"
	while read -r threads switches; do
		row="| $threads | $switches |"
		for col in "${columns[@]}"; do
			done_cells=$((done_cells + 1))
			run_cell "$p" "$file" "$threads" "$switches" "$col"
			row+=" $cell |"
			printf 'bench-tables: [%d/%d] %s %s switches=%s %s: %s\n' \
				"$done_cells" "$total_cells" "$p" "$threads" "$switches" "$col" "$cell" >&2
		done
		echo "$row"
	done < <(rows_of "$p")
done

echo >&2
echo "bench-tables: raw numbers in $tsv" >&2
