#!/usr/bin/env bash
# trace-check.sh: draw the trace of every example that has one and look
# at it in a browser (issue 31). For each `// expect: unsafe FLAGS` and
# `// expect: livelock FLAGS` line of examples/*.bpl it runs
#
#   bmc check --quiet FLAGS --trace-svg NAME.svg --trace-html NAME.html prog.bpl
#
# (exit status 10 expected), then opens NAME.html in headless Chromium
# and writes the screenshot NAME.png, the window sized to the picture.
# Two more pictures are drawn the same way for docs/USAGE.md ("Pictures
# of traces"): trace-bluetooth (the Bluetooth driver, --switches 6
# --threads adder=2,stopper=1) and trace-philosophers (the TryLock
# philosophers' livelock, --lasso 1,1).
#
# Chromium is Debian's `chromium`; when it is missing it is installed
# with apt-get (through sudo unless run as root), as `make deps` installs
# libz3-dev.
#
# Usage: make trace-check   (builds bin/bmc first)
#    or: scripts/trace-check.sh
#
# Options (environment variables; defaults in brackets):
#   TRACE_DIR     where the pictures and screenshots go [/tmp/bmc-trace-check]
#   TRACE_DOCS    a directory to copy trace-bluetooth.png and
#                 trace-philosophers.png into (docs, to update the
#                 manual's pictures) [none]
#   TRACE_ONLY    a pattern: draw only the examples whose file name
#                 contains it [all]
#   BMC           bmc binary [bin/bmc]
#   CHROMIUM      the browser [chromium]
#
# Exit status: 0 when every picture was drawn and photographed, 1 when
# one failed (each failure is named), 2 when Chromium cannot be had.
set -u

BMC=${BMC:-bin/bmc}
TRACE_DIR=${TRACE_DIR:-/tmp/bmc-trace-check}
TRACE_DOCS=${TRACE_DOCS:-}
TRACE_ONLY=${TRACE_ONLY:-}
CHROMIUM=${CHROMIUM:-chromium}

cd "$(dirname "$0")/.." || exit 2
if [ ! -x "$BMC" ]; then
	echo "trace-check: $BMC not found: run make build (or make trace-check)" >&2
	exit 2
fi
mkdir -p "$TRACE_DIR" || exit 2
TRACE_DIR=$(cd "$TRACE_DIR" && pwd)

if ! command -v "$CHROMIUM" >/dev/null 2>&1; then
	echo "trace-check: installing chromium (Debian's package) for the screenshots"
	if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
	if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium; }; then
		echo "trace-check: cannot install chromium" >&2
		exit 2
	fi
fi

failed=0
drawn=0
fail() {
	echo "trace-check: FAILED: $*" >&2
	failed=$((failed + 1))
}

# draw NAME FILE FLAGS...: the two pictures of FILE's trace under FLAGS,
# then the screenshot of the page.
draw() {
	local name=$1 file=$2
	shift 2
	local svg="$TRACE_DIR/$name.svg" html="$TRACE_DIR/$name.html" png="$TRACE_DIR/$name.png"
	rm -f "$svg" "$html" "$png"
	"$BMC" check --quiet "$@" --trace-svg "$svg" --trace-html "$html" "$file" </dev/null >"$TRACE_DIR/$name.txt" 2>"$TRACE_DIR/$name.err"
	local code=$?
	if [ "$code" != 10 ] || [ ! -s "$svg" ] || [ ! -s "$html" ]; then
		fail "$name: bmc check $* $file: exit $code, want 10 and both pictures ($(tail -n 3 "$TRACE_DIR/$name.err" | tr '\n' ' '))"
		return
	fi
	# The window is the picture's size plus the page's margins.
	local size w h
	size=$(sed -n '1s/^<svg [^>]* width="\([0-9.]*\)" height="\([0-9.]*\)".*/\1 \2/p' "$svg")
	if [ -z "$size" ]; then
		fail "$name: no width and height in $svg"
		return
	fi
	read -r w h <<<"$size"
	w=$(( ${w%.*} + 26 ))
	h=$(( ${h%.*} + 26 ))
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
		--force-device-scale-factor=1 --screenshot="$png" --window-size="$w,$h" "file://$html" \
		</dev/null >"$TRACE_DIR/$name.chromium.log" 2>&1
	code=$?
	if [ "$code" != 0 ] || [ ! -s "$png" ]; then
		fail "$name: chromium exit $code, no screenshot $png (log: $TRACE_DIR/$name.chromium.log)"
		return
	fi
	drawn=$((drawn + 1))
	echo "$name: $png (${w}x$h)"
}

for file in examples/*.bpl; do
	case "$file" in *"$TRACE_ONLY"*) ;; *) continue ;; esac
	n=0
	while IFS= read -r line; do
		n=$((n + 1))
		case "$line" in
		"// expect: unsafe "* | "// expect: livelock "*) ;;
		"// expect:"*) continue ;;
		*) break ;;
		esac
		rest=${line#// expect: }
		flags=
		case "$rest" in *" "*) flags=${rest#* } ;; esac
		# shellcheck disable=SC2086 # the flags are words
		draw "$(basename "$file" .bpl)-$n" "$file" $flags
	done <"$file"
done

if [ -z "$TRACE_ONLY" ]; then
	draw trace-bluetooth examples/bluetooth.bpl --switches 6 --threads adder=2,stopper=1
	draw trace-philosophers examples/philosophers_trylock.bpl --lasso 1,1
	if [ -n "$TRACE_DOCS" ] && [ "$failed" = 0 ]; then
		cp "$TRACE_DIR/trace-bluetooth.png" "$TRACE_DIR/trace-philosophers.png" "$TRACE_DOCS"/ || fail "copying the pictures to $TRACE_DOCS"
	fi
fi

echo "trace-check: $drawn pictures in $TRACE_DIR, $failed failed"
[ "$failed" = 0 ]
