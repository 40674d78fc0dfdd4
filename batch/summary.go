package batch

import (
	"cmp"
	"fmt"
	"html"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
)

// Summary sums up a batch's records.
type Summary struct {
	Checks    int
	Verdicts  map[string]int // checks by verdict
	TimedOut  int            // unknown at the check's --timeout
	Disagree  []Record       // a verdict other than the expected one
	Undecided []Record       // no verdict where one was expected
	Slowest   []Record       // the slowest checks, slowest first
	Wall      float64        // the checks' wall times, added up
	Versions  []string       // the bmc versions that made the records
}

// slowestShown is how many of the slowest checks a summary lists.
const slowestShown = 5

// Summarize sums up recs; a check recorded twice (a batch resumed over
// an output with it) counts once, as its last record.
func Summarize(recs []Record) Summary {
	last := map[string]int{}
	for i, r := range recs {
		last[r.Key()] = i
	}
	s := Summary{Verdicts: map[string]int{}}
	var kept []Record
	for i, r := range recs {
		if last[r.Key()] != i {
			continue
		}
		kept = append(kept, r)
		s.Checks++
		s.Verdicts[r.Verdict]++
		s.Wall += r.Wall
		if r.TimedOut() {
			s.TimedOut++
		}
		switch {
		case !r.Agrees():
			s.Disagree = append(s.Disagree, r)
		case r.Expected != "" && r.Expected != "depth-bound" && !r.Decided():
			s.Undecided = append(s.Undecided, r)
		}
		if r.Version != "" && !slices.Contains(s.Versions, r.Version) {
			s.Versions = append(s.Versions, r.Version)
		}
	}
	slices.SortStableFunc(kept, func(a, b Record) int { return cmp.Compare(b.Wall, a.Wall) })
	s.Slowest = kept[:min(len(kept), slowestShown)]
	return s
}

// WriteText prints the summary for people.
func (s Summary) WriteText(w io.Writer) {
	var verdicts []string
	for _, v := range slices.Sorted(maps.Keys(s.Verdicts)) {
		verdicts = append(verdicts, fmt.Sprintf("%s %d", v, s.Verdicts[v]))
	}
	fmt.Fprintf(w, "%d checks: %s", s.Checks, strings.Join(verdicts, ", "))
	if s.TimedOut > 0 {
		fmt.Fprintf(w, " (%d of the unknown at their --timeout)", s.TimedOut)
	}
	fmt.Fprintf(w, "; %.1fs of checking in all\n", s.Wall)
	if len(s.Versions) > 0 {
		fmt.Fprintf(w, "bmc %s\n", strings.Join(s.Versions, ", "))
	}
	fmt.Fprintf(w, "disagreements with the expected verdict: %d\n", len(s.Disagree))
	for _, r := range s.Disagree {
		fmt.Fprintf(w, "  %s %s: %s, expected %s\n", r.File, flagsText(r.Flags), r.Verdict, r.Expected)
	}
	if len(s.Undecided) > 0 {
		fmt.Fprintf(w, "undecided where a verdict is expected: %d\n", len(s.Undecided))
		for _, r := range s.Undecided {
			fmt.Fprintf(w, "  %s %s: %s%s, expected %s\n", r.File, flagsText(r.Flags), r.Verdict, why(r), r.Expected)
		}
	}
	if len(s.Slowest) > 0 {
		fmt.Fprintln(w, "slowest:")
		for _, r := range s.Slowest {
			fmt.Fprintf(w, "  %7.2fs %s %s: %s%s\n", r.Wall, r.File, flagsText(r.Flags), r.Verdict, why(r))
		}
	}
}

// why is what left a record without a verdict, in parentheses.
func why(r Record) string {
	var out []string
	for _, l := range r.Limits {
		out = append(out, l.Text)
	}
	for _, e := range r.Errors {
		out = append(out, e.String())
	}
	if len(out) == 0 {
		return ""
	}
	return " (" + strings.Join(out, "; ") + ")"
}

// cactusColors are the series' colours, by verdict.
var cactusColors = map[string]string{
	"safe": "#1b7837", "unsafe": "#b2182b", "livelock": "#d6604d", "no-livelock": "#5aae61",
	"unknown": "#762a83", "error": "#000000",
}

// Cactus draws the cactus plot of recs as SVG: for each verdict, its
// checks' wall times sorted, the n-th fastest at n, on a logarithmic
// time axis; a point further right is more checks answered within that
// time, the picture papers compare checkers with.
func Cactus(w io.Writer, recs []Record) error {
	// The checks a summary keeps, once each: the last record of each.
	series := map[string][]float64{}
	seen := map[string]bool{}
	for i := len(recs) - 1; i >= 0; i-- {
		r := recs[i]
		if seen[r.Key()] {
			continue
		}
		seen[r.Key()] = true
		series[r.Verdict] = append(series[r.Verdict], max(r.Wall, 0.001))
	}
	const (
		width, height          = 720, 440
		left, right, top, foot = 70, 150, 30, 50
	)
	most, lo, hi := 1, math.Inf(1), math.Inf(-1)
	for _, ts := range series {
		slices.Sort(ts)
		most = max(most, len(ts))
		lo, hi = min(lo, ts[0]), max(hi, ts[len(ts)-1])
	}
	if len(series) == 0 {
		lo, hi = 0.01, 1
	}
	loExp, hiExp := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if hiExp <= loExp {
		hiExp = loExp + 1
	}
	x := func(n int) float64 { return left + float64(n)/float64(most)*(width-left-right) }
	y := func(t float64) float64 {
		return top + (hiExp-math.Log10(t))/(hiExp-loExp)*(height-top-foot)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="%d" y="18" font-size="14">%d checks, wall time of each, sorted per verdict</text>`+"\n", left, len(seen))
	for e := loExp; e <= hiExp; e++ {
		t := math.Pow(10, e)
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", left, width-right, y(t), y(t))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s s</text>`+"\n", left-6, y(t)+4, trimFloat(t))
	}
	for _, n := range ticks(most) {
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%d</text>`+"\n", x(n), height-foot+16, n)
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">checks answered within the time</text>`+"\n", x(most/2), height-10)
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#444"/>`+"\n", left, top, width-left-right, height-top-foot)
	for k, v := range slices.Sorted(maps.Keys(series)) {
		ts := series[v]
		color := cmp.Or(cactusColors[v], "#555")
		var pts []string
		for i, t := range ts {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i+1), y(t)))
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>`+"\n", color, strings.Join(pts, " "))
		for i, t := range ts {
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"><title>%s: %s s</title></circle>`+"\n", x(i+1), y(t), color, html.EscapeString(v), trimFloat(t))
		}
		ly := top + 10 + 20*k
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="2"/>`+"\n", width-right+12, width-right+36, ly, ly, color)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s (%d)</text>`+"\n", width-right+42, ly+4, html.EscapeString(v), len(ts))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// ticks are about five round counts from 0 to n.
func ticks(n int) []int {
	step := 1
	for _, s := range []int{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000} {
		step = s
		if n/s <= 6 {
			break
		}
	}
	var out []int
	for t := 0; t <= n; t += step {
		out = append(out, t)
	}
	return out
}

func trimFloat(t float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", t), "0"), ".")
}
