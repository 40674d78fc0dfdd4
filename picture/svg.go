package picture

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"bmc/result"
)

// TraceSVG writes the picture of t as an SVG image.
func TraceSVG(w io.Writer, t *result.Trace, o Options) error {
	if t == nil {
		return errors.New("picture: no trace to draw")
	}
	var b strings.Builder
	build(t, o).svg(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

// svgStyle is the picture's style sheet: every text is monospaced, so
// that the widths the layout estimates hold.
const svgStyle = `
text{font-family:"DejaVu Sans Mono","Liberation Mono",Menlo,Consolas,"Courier New",monospace;font-size:12px;fill:#222}
.title{font-size:15px;font-weight:bold}
.bad{fill:#c62828;font-weight:bold}
.summary{fill:#555}
.name{font-size:13px;font-weight:bold}
.colhead{font-size:13px;font-weight:bold;fill:#555}
.pos{fill:#888}
.local{font-size:10.5px;fill:#8a8a8a}
.label{font-size:10px;fill:#333}
.halo{paint-order:stroke;stroke:#fff;stroke-width:4px;stroke-linejoin:round}
.fold{fill:#666;font-style:italic}
.note{fill:#555;font-style:italic}
.begin{fill:#555;font-size:10px;font-style:italic}
.loop{fill:#7b3fa0;font-weight:bold}
.loopnote{fill:#7b3fa0;font-size:10px;font-style:italic}
.lockname{font-size:10px;font-weight:bold}
.legend{font-size:10.5px;fill:#555}
.hit{fill:#000;fill-opacity:0}
.step:hover .hit,.fold-run:hover .hit{fill:#ffd54a;fill-opacity:.35}
`

const (
	loopColor  = "#7b3fa0"
	badColor   = "#c62828"
	arrowColor = "#333"
)

// num prints a coordinate: at most one decimal, none when it is whole.
func num(v float64) string {
	return strconv.FormatFloat(float64(int64(v*10+0.5))/10, 'f', -1, 64)
}

// esc makes s safe as XML character data or an attribute value: the
// markup characters escaped, and what XML cannot hold (invalid UTF-8,
// control characters) replaced.
func esc(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				b.WriteRune('\uFFFD')
				continue
			}
		}
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&quot;")
		case r == '\'':
			b.WriteString("&#39;")
		case r == '\n':
			b.WriteString("&#10;")
		case r == '\t':
			b.WriteString(" ")
		case r < 0x20 || r == 0xFFFE || r == 0xFFFF || (r >= 0xD800 && r <= 0xDFFF):
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// svg writes the picture.
func (l *layout) svg(b *strings.Builder) {
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s">`+"\n",
		num(l.width), num(l.height), num(l.width), num(l.height))
	fmt.Fprintf(b, "<title>%s</title>\n", esc("bmc trace: "+l.header[1].text))
	fmt.Fprintf(b, "<style>%s</style>\n", svgStyle)
	b.WriteString("<defs>\n")
	for _, m := range []struct{ id, color string }{{"arrow", arrowColor}, {"loop-arrow", loopColor}} {
		fmt.Fprintf(b, `<marker id="%s" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0L10,5L0,10z" fill="%s"/></marker>`+"\n", m.id, m.color)
	}
	b.WriteString("</defs>\n")
	fmt.Fprintf(b, `<rect width="%s" height="%s" fill="#fff"/>`+"\n", num(l.width), num(l.height))
	for _, h := range l.header {
		fmt.Fprintf(b, `<text x="%s" y="%s" class="%s">%s</text>`+"\n", num(margin), num(h.y), h.class, esc(h.text))
	}
	for _, ln := range l.lanes {
		name := ln.name
		if name == "" {
			name = "?" // a step without its thread's name
		}
		fmt.Fprintf(b, `<text x="%s" y="%s" class="name" fill="%s" style="fill:%s">%s</text>`+"\n", num(ln.axis-4), num(l.lanesTop), ln.color, ln.color, esc(name))
	}
	fmt.Fprintf(b, `<text x="%s" y="%s" class="colhead">shared variables</text>`+"\n", num(l.changesX), num(l.lanesTop))
	l.svgStripes(b)
	l.svgLoopBox(b)
	l.svgLanes(b)
	l.svgBars(b)
	for i := range l.rows {
		l.svgRow(b, &l.rows[i])
	}
	l.svgLegend(b)
	b.WriteString("</svg>\n")
}

// svgStripes tints every other statement row across the whole width, so
// that the eye can follow a row from its lane to its changes.
func (l *layout) svgStripes(b *strings.Builder) {
	for _, r := range l.rows {
		if r.stripe {
			fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s" fill="#f1f4f8"/>`+"\n",
				num(margin/2), num(r.y), num(l.contentRight()-margin/2), num(r.h))
		}
	}
}

// contentRight is the right edge of the rows' content.
func (l *layout) contentRight() float64 {
	if l.loopRow >= 0 {
		return l.loopRight
	}
	return l.width - margin/2
}

// svgLoopBox boxes the rows of a livelock's loop and draws the arrow
// back from its end to its start.
func (l *layout) svgLoopBox(b *strings.Builder) {
	if l.loopRow < 0 {
		return
	}
	top := l.rows[l.loopRow].y + 2
	bottom := l.rowsBottom + 4
	left := margin / 2
	fmt.Fprintf(b, `<g class="loop-box"><title>%s</title>`, esc("the loop: the steps in this box repeat forever"))
	fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s" rx="6" fill="%s" fill-opacity="0.05" stroke="%s" stroke-width="1.5" stroke-dasharray="6 4"/>`,
		num(left), num(top), num(l.loopRight-left), num(bottom-top), loopColor, loopColor)
	x := l.loopRight + 12
	fmt.Fprintf(b, `<path d="M%s,%sH%sV%sH%s" fill="none" stroke="%s" stroke-width="1.6" marker-end="url(#loop-arrow)"/>`,
		num(l.loopRight), num(bottom-10), num(x), num(top+10), num(l.loopRight+2), loopColor)
	if label := "repeats forever"; bottom-top >= runes(label)*labelW+30 {
		mid := (top + bottom) / 2
		fmt.Fprintf(b, `<text x="%s" y="%s" class="loopnote" text-anchor="middle" transform="rotate(90 %s %s)">%s</text>`,
			num(x+5), num(mid), num(x+5), num(mid), label)
	}
	b.WriteString("</g>\n")
}

// svgLanes draws each lane's axis, and over it, thick, the stretches in
// which its thread runs.
func (l *layout) svgLanes(b *strings.Builder) {
	top := l.threadsTop()
	for i, ln := range l.lanes {
		y0, y1 := top, l.stepsBottom
		if i == l.initLane() {
			y0, y1 = l.axesTop(), top
		}
		if y1 <= y0 {
			continue
		}
		fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#c8c8c8" stroke-dasharray="3 3"/>`+"\n",
			num(ln.axis), num(y0), num(ln.axis), num(y1))
	}
	lane, from, to := -1, 0.0, 0.0
	flush := func() {
		if lane >= 0 && to > from {
			fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="3" stroke-opacity="0.45"/>`+"\n",
				num(l.lanes[lane].axis), num(from), num(l.lanes[lane].axis), num(to), l.lanes[lane].color)
		}
		lane = -1
	}
	for _, r := range l.rows {
		switch r.kind {
		case rowSwitch:
			flush()
			lane, from, to = r.lane, switchY(r), switchY(r)
		case rowBegin, rowStep, rowFold:
			if lane != r.lane {
				flush()
				lane, from = r.lane, r.y+r.h/2
			}
			to = r.y + r.h/2
		case rowStart:
			flush()
		}
	}
	flush()
}

// switchY is the height of a switch row's arrow.
func switchY(r row) float64 { return r.y + r.h - 9 }

// svgBars draws the lock bars in their holders' gutters, each with the
// lock's name beside it.
func (l *layout) svgBars(b *strings.Builder) {
	for _, br := range l.bars {
		ln := l.lanes[br.lane]
		x := ln.x + ln.names + float64(br.slot)*slotW
		until := "held to the end of the trace"
		freed := ""
		if br.freedAt >= 0 {
			until = "freed at " + l.t.Steps[br.freedAt].Pos.String()
			freed = strconv.Itoa(br.freedAt)
		}
		title := fmt.Sprintf("lock %s held by %s: taken at %s, %s", br.lock, br.holder, l.t.Steps[br.takenAt].Pos, until)
		fmt.Fprintf(b, `<g class="lock" data-lock="%s" data-holder="%s" data-taken="%d" data-freed="%s"><title>%s</title>`,
			esc(br.lock), esc(br.holder), br.takenAt, freed, esc(title))
		fmt.Fprintf(b, `<rect x="%s" y="%s" width="5" height="%s" rx="2" fill="%s"/>`, num(x), num(br.y0), num(max(br.y1-br.y0, 4)), br.color)
		fmt.Fprintf(b, `<text x="%s" y="%s" class="lockname halo" text-anchor="end" fill="%s" style="fill:%s">%s</text>`,
			num(ln.x+ln.names-3), num(br.y0+10), br.color, br.color, esc(br.lock))
		b.WriteString("</g>\n")
	}
}

// svgRow draws one row.
func (l *layout) svgRow(b *strings.Builder, r *row) {
	mid := r.y + r.h/2
	base := mid + 4 // the baseline that centres 12 px text on mid
	switch r.kind {
	case rowNote:
		fmt.Fprintf(b, `<text x="%s" y="%s" class="note">%s</text>`+"\n", num(margin), num(base), esc(r.label))
	case rowStart:
		y := mid + 5
		right := l.changesX - 8
		fmt.Fprintf(b, `<g class="start"><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#999" stroke-dasharray="8 4"/>`,
			num(margin), num(y), num(right), num(y))
		fmt.Fprintf(b, `<text x="%s" y="%s" class="label halo">%s</text></g>`+"\n", num(l.lanes[0].textX), num(y-5), esc(r.label))
	case rowBegin:
		ln := l.lanes[r.lane]
		fmt.Fprintf(b, `<g class="begin-run" data-thread="%s"><title>%s</title>`, esc(ln.name), esc(l.t.Steps[r.steps[0]].Event))
		fmt.Fprintf(b, `<path d="M%s,%sL%s,%sL%s,%sz" fill="%s"/>`, num(ln.axis-5), num(mid-4), num(ln.axis+5), num(mid-4), num(ln.axis), num(mid+4), ln.color)
		fmt.Fprintf(b, `<text x="%s" y="%s" class="begin">%s</text></g>`+"\n", num(ln.textX), num(base-1), esc(r.label))
	case rowSwitch:
		l.svgSwitch(b, r)
	case rowStep:
		l.svgStep(b, r)
	case rowFold:
		l.svgFold(b, r)
	case rowLoop:
		label := "↻ " + r.label
		fmt.Fprintf(b, `<text x="%s" y="%s" class="loop">%s</text>`+"\n", num(l.labelX(runes(label)*charW)), num(r.y+19), esc(label))
	case rowLoopEnd:
		fmt.Fprintf(b, `<text x="%s" y="%s" class="loopnote">%s</text>`+"\n", num(margin+4), num(r.y+12), esc(r.label))
	case rowViolation:
		fmt.Fprintf(b, `<text x="%s" y="%s" class="bad halo">%s</text>`+"\n", num(l.lanes[r.lane].textX), num(base), esc(r.label))
	}
}

// svgSwitch draws a context switch: an arrow from the axis of the lane
// that stops to the axis of the lane that runs, its label above it.
func (l *layout) svgSwitch(b *strings.Builder, r *row) {
	from, to := l.lanes[r.from], l.lanes[r.lane]
	y := switchY(*r)
	end := to.axis - 6
	if to.axis < from.axis {
		end = to.axis + 6
	}
	title := "context switch"
	if r.steps[0] >= 0 {
		title = l.t.Steps[r.steps[0]].Event
	}
	fmt.Fprintf(b, `<g class="switch" data-from="%s" data-to="%s"><title>%s</title>`, esc(from.name), esc(to.name), esc(title))
	fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.5" marker-end="url(#arrow)"/>`,
		num(from.axis), num(y), num(end), num(y), arrowColor)
	// The label goes over the middle of the widest stretch of the arrow
	// that no lane's axis or lock bar crosses.
	lo, hi := min(from.axis, to.axis), max(from.axis, to.axis)
	best, width := gap{lo, hi}, -1.0
	for _, g := range l.gaps() {
		a, z := max(g.from, lo), min(g.to, hi)
		if z-a > width {
			best, width = gap{a, z}, z-a
		}
	}
	fmt.Fprintf(b, `<text x="%s" y="%s" class="label halo" text-anchor="middle">%s</text></g>`+"\n",
		num((best.from+best.to)/2), num(y-5), esc(r.label))
}

// labelX is where a label w wide starts: in the first gap it fits, or
// else the widest.
func (l *layout) labelX(w float64) float64 {
	best, width := margin, -1.0
	for _, g := range l.gaps() {
		if g.to-g.from >= w+8 {
			return g.from + 4
		}
		if g.to-g.from > width {
			best, width = g.from+4, g.to-g.from
		}
	}
	return best
}

// svgStep draws one statement: its mark on the lane's axis, its position
// and text, its locals small beside it, and its shared changes on the
// right; the hover text names the thread, the place and the source line.
func (l *layout) svgStep(b *strings.Builder, r *row) {
	i := r.steps[0]
	s := l.t.Steps[i]
	ln := l.lanes[r.lane]
	mid := r.y + r.h/2
	class := "step"
	if r.bad {
		class = "step violation"
	}
	fmt.Fprintf(b, `<g class="%s %s" data-step="%d"><title>%s</title>`, class, l.lineClass(s), i, esc(l.hoverText(s)))
	fmt.Fprintf(b, `<rect class="hit" x="%s" y="%s" width="%s" height="%s"/>`, num(margin/2), num(r.y), num(l.contentRight()-margin/2), num(r.h))
	if r.bad {
		fmt.Fprintf(b, `<circle cx="%s" cy="%s" r="5.5" fill="%s" stroke="#fff" stroke-width="1.5"/>`, num(ln.axis), num(mid), badColor)
	} else {
		fmt.Fprintf(b, `<circle cx="%s" cy="%s" r="4" fill="%s"/>`, num(ln.axis), num(mid), ln.color)
	}
	pos, stmt := l.stmtText(*r)
	textClass := ""
	if r.bad {
		textClass = ` class="bad"`
	}
	fmt.Fprintf(b, `<text x="%s" y="%s"%s><tspan class="pos">%s</tspan> %s`, num(ln.textX), num(mid+4), textClass, esc(pos), esc(stmt))
	if len(r.locals) > 0 {
		fmt.Fprintf(b, `<tspan class="local" dx="10">%s</tspan>`, esc(cut(strings.Join(r.locals, " "), maxLocals)))
	}
	b.WriteString("</text>")
	if len(r.shared) > 0 || len(r.locks) > 0 {
		fmt.Fprintf(b, `<text x="%s" y="%s">`, num(l.changesX), num(mid+4))
		left := maxChanges
		sep := ""
		for _, c := range r.shared {
			if left <= 0 {
				break
			}
			c = cut(c, left)
			fmt.Fprintf(b, `<tspan>%s%s</tspan>`, sep, esc(c))
			left -= len([]rune(sep + c))
			sep = "  "
		}
		for _, c := range r.locks {
			if left <= 0 {
				break
			}
			w := cut(lockWord(c), left)
			fmt.Fprintf(b, `<tspan fill="%s" style="fill:%s;font-weight:bold">%s%s</tspan>`, l.lockColor[c.lock], l.lockColor[c.lock], sep, esc(w))
			left -= len([]rune(sep + w))
			sep = "  "
		}
		b.WriteString("</text>")
	}
	b.WriteString("</g>\n")
}

// svgFold draws a folded run of thread-local statements as one hollow
// mark; the hover text lists them.
func (l *layout) svgFold(b *strings.Builder, r *row) {
	ln := l.lanes[r.lane]
	mid := r.y + r.h/2
	var ids, classes, lines []string
	lines = append(lines, fmt.Sprintf("%s: %d thread-local steps (they change no shared variable and no lock):", ln.name, len(r.steps)))
	for _, i := range r.steps {
		s := l.t.Steps[i]
		ids = append(ids, strconv.Itoa(i))
		if c := l.lineClass(s); c != "" && !slices.Contains(classes, c) {
			classes = append(classes, c)
		}
		line := fmt.Sprintf("  %s  %s", s.Pos, s.Stmt)
		if len(s.Changes) > 0 {
			line += "   " + strings.Join(s.Changes, " ")
		}
		lines = append(lines, line)
	}
	fmt.Fprintf(b, `<g class="fold-run %s" data-steps="%s"><title>%s</title>`, strings.Join(classes, " "), strings.Join(ids, " "), esc(strings.Join(lines, "\n")))
	fmt.Fprintf(b, `<rect class="hit" x="%s" y="%s" width="%s" height="%s"/>`, num(margin/2), num(r.y), num(l.contentRight()-margin/2), num(r.h))
	fmt.Fprintf(b, `<circle cx="%s" cy="%s" r="4" fill="#fff" stroke="%s" stroke-width="1.5" stroke-dasharray="2 1.5"/>`, num(ln.axis), num(mid), ln.color)
	fmt.Fprintf(b, `<text x="%s" y="%s" class="fold">%s</text></g>`+"\n", num(ln.textX), num(mid+4), esc(r.label))
}

// hoverText describes a statement for its tooltip.
func (l *layout) hoverText(s result.Step) string {
	where := s.Pos.String()
	if s.File != "" {
		where = s.File + ":" + where
	}
	text := fmt.Sprintf("%s at %s", s.Thread, where)
	if s.Proc != "" {
		text += " in " + s.Proc
	}
	if src, ok := l.sourceLine(s.File, s.Pos.Line); ok {
		text += fmt.Sprintf("\n%5d | %s", s.Pos.Line, src)
	} else {
		text += "\n" + s.Stmt
	}
	if len(s.Changes) > 0 {
		text += "\nchanges: " + strings.Join(s.Changes, " ")
	}
	return text
}

// sourceLine is line n (from 1) of file, if the options hold it.
func (l *layout) sourceLine(file string, n int) (string, bool) {
	lines, ok := l.o.Sources[file]
	if !ok || n < 1 || n > len(lines) {
		return "", false
	}
	return strings.TrimRight(lines[n-1], " \t\r"), true
}

// lineClass names a statement's source line for the page's style sheet
// ("L0-87": line 87 of the first file with sources); "" when there are
// no sources for it.
func (l *layout) lineClass(s result.Step) string {
	fi := l.fileIndex(s.File)
	if fi < 0 || s.Pos.Line < 1 {
		return ""
	}
	return fmt.Sprintf("L%d-%d", fi, s.Pos.Line)
}

// files lists the files of the trace's statements that have sources,
// in order of appearance.
func (l *layout) files() []string {
	if l.fileList == nil {
		l.fileList = []string{}
		for _, s := range l.t.Steps {
			if _, ok := l.o.Sources[s.File]; ok && s.Event == "" && !slices.Contains(l.fileList, s.File) {
				l.fileList = append(l.fileList, s.File)
			}
		}
	}
	return l.fileList
}

func (l *layout) fileIndex(file string) int {
	return slices.Index(l.files(), file)
}

// The legend's entries.
const (
	legendStep   = "a step (hover: its source line)"
	legendFold   = "thread-local steps, folded"
	legendSwitch = "context switch"
	legendLock   = "lock held (beside its holder)"
	legendLoop   = "the loop"
	legendBad    = "the violation"
)

// legendItems are the legend's entries for the marks the picture has.
func (l *layout) legendItems() []string {
	items := []string{legendStep}
	if l.folded > 0 {
		items = append(items, legendFold)
	}
	if slices.ContainsFunc(l.rows, func(r row) bool { return r.kind == rowSwitch }) {
		items = append(items, legendSwitch)
	}
	if len(l.bars) > 0 {
		items = append(items, legendLock)
	}
	if l.t.Livelock {
		return append(items, legendLoop)
	}
	return append(items, legendBad)
}

// legendItemW is the width of a legend entry: its symbol, its text and
// the gap after it.
func legendItemW(text string) float64 { return 14 + runes(text)*smallW + 20 }

// svgLegend explains the marks, below the rows.
func (l *layout) svgLegend(b *strings.Builder) {
	y := l.height - 18
	x := margin
	b.WriteString(`<g class="legend">`)
	for _, text := range l.legendItems() {
		switch text {
		case legendStep:
			fmt.Fprintf(b, `<circle cx="%s" cy="%s" r="4" fill="%s"/>`, num(x+4), num(y), laneColors[0])
		case legendFold:
			fmt.Fprintf(b, `<circle cx="%s" cy="%s" r="4" fill="#fff" stroke="%s" stroke-width="1.5" stroke-dasharray="2 1.5"/>`, num(x+4), num(y), laneColors[0])
		case legendSwitch:
			fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.5" marker-end="url(#arrow)"/>`, num(x-2), num(y), num(x+10), num(y), arrowColor)
		case legendLock:
			fmt.Fprintf(b, `<rect x="%s" y="%s" width="5" height="12" rx="2" fill="%s"/>`, num(x+2), num(y-6), lockColors[0])
		case legendLoop:
			fmt.Fprintf(b, `<rect x="%s" y="%s" width="11" height="11" rx="2" fill="none" stroke="%s" stroke-dasharray="3 2"/>`, num(x-1), num(y-5.5), loopColor)
		case legendBad:
			fmt.Fprintf(b, `<circle cx="%s" cy="%s" r="5" fill="%s"/>`, num(x+4), num(y), badColor)
		}
		fmt.Fprintf(b, `<text x="%s" y="%s" class="legend">%s</text>`, num(x+14), num(y+4), esc(text))
		x += legendItemW(text)
	}
	b.WriteString("</g>\n")
}
