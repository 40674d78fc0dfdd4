# bench-common.sh: what the benchmark scripts share; sourced, not run.

# now is the time in seconds; secs A B the seconds from A to B.
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

# median prints the median of its arguments, two decimals.
median() {
	printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.2f", m }'
}

# machine_line RUNS TIMEOUT prints the table's first line: the machine,
# the date, the commit (-dirty with changes not committed), the runs.
machine_line() {
	local commit
	commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
	git diff --quiet HEAD -- 2>/dev/null || commit+=-dirty
	echo "Machine: $(nproc) CPUs, $(grep -m 1 '^model name' /proc/cpuinfo | sed 's/^[^:]*: *//'); $(date -u '+%Y-%m-%d %H:%M UTC'); commit $commit; median of $1 runs per cell, $2 s a run."
}
