package picture

import (
	"fmt"
	"strings"

	"bmc/result"
)

// DefaultFold is the longest run of thread-local steps drawn step by
// step: a longer one folds into one mark. Four keeps the short runs
// around a shared access (enter, test, leave) visible.
const DefaultFold = 4

// Options are what the picture needs beyond the trace.
type Options struct {
	// Globals names the program's shared variables: a change of one of
	// them goes to the column on the right, a change of any other
	// variable (a local) stays small beside its statement. nil: every
	// variable counts as shared, and no step is thread-local.
	Globals map[string]bool
	// Sources holds each file's lines (file as in result.Step.File), for
	// the hover text; nil: none shown.
	Sources map[string][]string
	// Fold: a run of more than Fold thread-local steps of one thread
	// folds into one mark; 0 means DefaultFold, a negative value never
	// folds.
	Fold int
	// Title is the picture's first line (the command, say); "" names the
	// trace's file.
	Title string
}

func (o Options) fold() int {
	if o.Fold == 0 {
		return DefaultFold
	}
	return o.Fold
}

// rowKind is what one row of the picture shows. Every row spans the
// whole width, so that nothing drawn in one row can overlap another's.
type rowKind int

const (
	rowNote      rowKind = iota // a line of text (the initial values, an event without a kind)
	rowStart                    // init has ended: the threads start
	rowBegin                    // a thread runs first, or a round begins with the thread that ran last
	rowSwitch                   // a context switch: an arrow from lane from to lane
	rowStep                     // one statement
	rowFold                     // a run of thread-local statements, folded
	rowLoop                     // the top of a livelock's loop box
	rowLoopEnd                  // a line of what the loop leaves behind
	rowViolation                // the violation, below its step
)

// row is one row of the picture, from top y, h high.
type row struct {
	kind  rowKind
	lane  int   // the lane of the step; after a switch, the lane that runs
	from  int   // rowSwitch: the lane that stops
	steps []int // indices in Trace.Steps: the statements of a step or fold; the event of another row
	label string
	y, h  float64
	// A statement's changes: shared variables (and threads started or
	// ended), the thread's own variables, locks taken or freed.
	shared, locals []string
	locks          []lockChange
	bad            bool // the statement that violates
	stripe         bool // drawn on a tinted band (every other statement row)
}

type lockChange struct{ lock, holder string }

// lane is one thread's column: lock bars in its gutter, then its axis
// with the marks, then the statements.
type lane struct {
	name  string
	color string
	slots int     // lock bars side by side in the gutter
	names float64 // the width of the lock names left of the bars
	x, w  float64 // left edge, width
	axis  float64 // the vertical line the marks sit on
	textX float64 // where the statements begin
}

// bar is a lock held by the thread of lane from row taken to row freed
// (-1: held to the end).
type bar struct {
	lock, holder     string
	lane, slot       int
	taken, freed     int // rows
	takenAt, freedAt int // steps
	y0, y1           float64
	color            string
}

// layout is the picture of a trace before it is written.
type layout struct {
	t       *result.Trace
	o       Options
	lanes   []lane
	rows    []row
	bars    []bar
	loopRow int // the row of the loop box's top; -1: no loop
	folded  int // statements folded
	// The geometry.
	width, height float64
	header        []headerLine
	lanesTop      float64 // the lane names' baseline
	rowsTop       float64
	rowsBottom    float64
	stepsBottom   float64 // rowsBottom above the loop end's notes
	changesX      float64
	loopRight     float64 // the loop box's right edge
	lockColor     map[string]string
	fileList      []string // see files
}

type headerLine struct {
	text  string
	class string
	y     float64
}

// Sizes, in pixels. The text is monospaced, so that a string's width
// is its length times the advance of one character (0.6 em in DejaVu
// Sans Mono, Liberation Mono, Menlo and Courier; the estimates round up).
const (
	charW       = 7.3 // 12 px
	smallW      = 6.4 // 10.5 px
	labelW      = 6.1 // 10 px
	titleW      = 9.1 // 15 px bold
	nameW       = 8.0 // 13 px bold
	margin      = 16.0
	slotW       = 9.0  // one lock bar, in a lane's gutter
	initText    = 48.0 // the init lane's own width: its statements run on over the idle lanes
	lanePad     = 22.0 // after a lane's longest statement
	minLaneText = 150.0
	loopArrowW  = 34.0 // right of the loop box: the arrow back to its top
	maxStmt     = 44   // characters of a statement shown in its lane (all of it on hover)
	maxInitStmt = 76   // the same for init, whose statements run on over the idle lanes
	maxLocals   = 28
	maxChanges  = 56
)

var laneColors = []string{"#1f6fb4", "#2a9d3a", "#8e5bbf", "#d9730d", "#8c564b", "#148f9e", "#c2478f", "#5c6b7a"}

const initColor = "#707070"

// lockColors stay apart from the first lanes' blue, green and purple.
var lockColors = []string{"#e0a000", "#00a39a", "#d0527f", "#8a8a1e", "#a0522d", "#6a5acd", "#b8860b", "#4f7f7f"}

// build lays out the picture of t.
func build(t *result.Trace, o Options) *layout {
	l := &layout{t: t, o: o, loopRow: -1, lockColor: map[string]string{}}
	l.makeLanes()
	l.makeRows()
	l.place()
	return l
}

// makeLanes gives init (when it takes a step) the first lane, then the
// threads in instance order (Trace.Threads), then any other thread the
// steps name, in order of appearance.
func (l *layout) makeLanes() {
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	for _, s := range l.t.Steps {
		if s.Event == "" && s.Thread == "init" {
			add("init")
			break
		}
	}
	for _, n := range l.t.Threads {
		if n != "" {
			add(n)
		}
	}
	for _, s := range l.t.Steps {
		switch {
		case s.Event == "": // a statement: its thread has a lane, even without a name
			add(s.Thread)
		case s.Thread != "" && (s.Sched == result.SchedFirst || s.Sched == result.SchedRound || s.Sched == result.SchedSwitch):
			add(s.Thread)
		}
	}
	k := 0
	for _, n := range names {
		c := initColor
		if n != "init" {
			c = laneColors[k%len(laneColors)]
			k++
		}
		l.lanes = append(l.lanes, lane{name: n, color: c})
	}
}

// initLane is the lane of init, -1 when init takes no step. Its
// statements come before any thread's, so they may run on over the
// threads' lanes, whose axes begin where init ends (threadsTop).
func (l *layout) initLane() int {
	if len(l.lanes) > 0 && l.lanes[0].name == "init" {
		return 0
	}
	return -1
}

// threadsTop is where the threads' axes begin: below init's rows and
// the notes above the first statement.
func (l *layout) threadsTop() float64 {
	for _, r := range l.rows {
		switch {
		case r.kind == rowNote:
		case l.initLane() < 0:
			return r.y
		case r.kind == rowStart || (r.kind != rowLoop && r.lane != l.initLane()):
			return r.y + r.h/2
		}
	}
	return l.rowsBottom
}

// axesTop is where the first axis begins: below the notes above the
// first statement.
func (l *layout) axesTop() float64 {
	for _, r := range l.rows {
		if r.kind != rowNote {
			return r.y
		}
	}
	return l.rowsBottom
}

func (l *layout) laneOf(name string) int {
	for i := range l.lanes {
		if l.lanes[i].name == name {
			return i
		}
	}
	return -1 // not reached: makeLanes names every thread that takes a step
}

// classify sorts the changes of a step: locks, shared variables (and
// threads started or ended, and another thread's copy that a broadcast
// writes), and the thread's own variables.
func (l *layout) classify(s result.Step) (shared, locals []string, locks []lockChange) {
	for _, c := range s.Changes {
		if lock, holder, ok := result.ParseLockChange(c); ok {
			locks = append(locks, lockChange{lock, holder})
			continue
		}
		name, _, isVar := strings.Cut(c, "=")
		if isVar && l.o.Globals != nil && !l.o.Globals[name] && !strings.Contains(name, ".") && !strings.Contains(name, " ") {
			locals = append(locals, c)
			continue
		}
		shared = append(shared, c)
	}
	return shared, locals, locks
}

// makeRows turns the steps into rows: statements, folded runs, context
// switches and the other events.
func (l *layout) makeRows() {
	steps := l.t.Steps
	// Which statements may fold: thread-local ones (no shared variable,
	// no lock, no thread started or ended), but not the violating one
	// nor the first or last of a livelock's loop.
	local := make([]bool, len(steps))
	firstLoop, last := -1, -1
	for i, s := range steps {
		if s.Event != "" {
			continue
		}
		shared, _, locks := l.classify(s)
		local[i] = len(shared) == 0 && len(locks) == 0
		if l.t.Livelock && i > l.t.Loop && firstLoop < 0 {
			firstLoop = i
		}
		last = i
	}
	if firstLoop >= 0 {
		local[firstLoop] = false
	}
	if last >= 0 {
		local[last] = false // the violation, or the loop's last statement
	}
	fold := l.o.fold()
	pending, pendingAt := "", -1
	running := -1
	for i := 0; i < len(steps); i++ {
		s := steps[i]
		if s.Event != "" {
			switch s.Sched {
			case result.SchedStart:
				l.rows = append(l.rows, row{kind: rowStart, steps: []int{i}, label: "init done: the threads start"})
				running = -1
			case result.SchedFirst, result.SchedRound, result.SchedSwitch:
				pending, pendingAt = l.schedLabel(i), i
			case result.SchedLoop:
				l.loopRow = len(l.rows)
				l.rows = append(l.rows, row{kind: rowLoop, steps: []int{i}, label: "repeats forever"})
			case result.SchedLoopEnd:
				l.rows = append(l.rows, row{kind: rowLoopEnd, steps: []int{i}, label: "loop end: " + strings.TrimPrefix(s.Event, "loop end: ")})
			default:
				l.rows = append(l.rows, row{kind: rowNote, steps: []int{i}, label: s.Event})
			}
			continue
		}
		ln := l.laneOf(s.Thread)
		switch {
		case running >= 0 && running != ln:
			if pending == "" {
				pending = "switch"
			}
			l.rows = append(l.rows, row{kind: rowSwitch, lane: ln, from: running, steps: []int{pendingAt}, label: pending})
		case pending != "":
			l.rows = append(l.rows, row{kind: rowBegin, lane: ln, steps: []int{pendingAt}, label: pending})
		}
		pending, pendingAt, running = "", -1, ln
		if fold >= 0 && local[i] {
			j := i
			for j+1 < len(steps) && steps[j+1].Event == "" && steps[j+1].Thread == s.Thread && local[j+1] {
				j++
			}
			if j-i+1 > fold {
				r := row{kind: rowFold, lane: ln}
				for k := i; k <= j; k++ {
					r.steps = append(r.steps, k)
				}
				r.label = fmt.Sprintf("… %d local steps (%s–%s)", j-i+1, steps[i].Pos, steps[j].Pos)
				l.rows = append(l.rows, r)
				l.folded += j - i + 1
				i = j
				continue
			}
		}
		r := row{kind: rowStep, lane: ln, steps: []int{i}, bad: i == last && !l.t.Livelock}
		r.shared, r.locals, r.locks = l.classify(s)
		l.rows = append(l.rows, r)
		if r.bad {
			l.rows = append(l.rows, row{kind: rowViolation, lane: ln, steps: []int{i}, label: "✗ " + l.t.Violation})
		}
	}
}

// schedLabel labels the switch (or start) that event i announces: its
// number, or its round under a round bound (in a livelock, the stem's
// or the loop's round).
func (l *layout) schedLabel(i int) string {
	s := l.t.Steps[i]
	phase := ""
	if l.t.Livelock {
		phase = "stem "
		if i > l.t.Loop {
			phase = "loop "
		}
	}
	switch {
	case s.Sched == result.SchedFirst:
		return "runs first"
	case s.Sched == result.SchedRound:
		return fmt.Sprintf("%sround %d", phase, s.Round)
	case s.Round > 0 && l.t.Livelock:
		return fmt.Sprintf("%sround %d", phase, s.Round)
	case s.Round > 0:
		return fmt.Sprintf("switch %d · round %d", s.Switch, s.Round)
	case s.Switch > 0:
		return fmt.Sprintf("switch %d", s.Switch)
	}
	return "switch"
}

// Row heights.
var rowHeight = map[rowKind]float64{
	rowNote: 22, rowStart: 30, rowBegin: 20, rowSwitch: 28, rowStep: 20, rowFold: 20,
	rowLoop: 28, rowLoopEnd: 16, rowViolation: 18,
}

// place gives every row its height and place, every lock bar its slot
// in its holder's gutter, and every lane and column its width.
func (l *layout) place() {
	// The header, then the lane names, then the rows.
	y := 24.0
	title := l.o.Title
	if title == "" {
		title = l.t.File
	}
	l.header = append(l.header, headerLine{title, "title", y})
	y += 20
	what := l.t.Violation
	if !l.t.Livelock {
		what = fmt.Sprintf("violation at %s:%s: %s", l.t.File, l.t.Pos, l.t.Violation)
	}
	l.header = append(l.header, headerLine{what, "bad", y})
	y += 18
	l.header = append(l.header, headerLine{l.summary(), "summary", y})
	y += 30
	l.lanesTop = y
	y += 12
	l.rowsTop = y
	stripe := false
	for i := range l.rows {
		r := &l.rows[i]
		r.y, r.h = y, rowHeight[r.kind]
		if r.kind == rowStep || r.kind == rowFold {
			r.stripe = stripe
			stripe = !stripe
		}
		y += r.h
	}
	l.rowsBottom = y
	l.placeBars()
	l.placeColumns()
	// The loop end's notes and the violation wrap: more rows, so the
	// rows below them move down.
	l.wrapNotes()
	y = l.rowsBottom
	if l.loopRow >= 0 {
		y += 8
	}
	l.height = y + 44 // the legend
}

// summary is the header's third line: what the trace holds.
func (l *layout) summary() string {
	n := l.t.Statements()
	parts := []string{result.Plural(n, "step")}
	if l.t.Switches > 0 {
		parts = append(parts, result.Plural(l.t.Switches, "context switch"))
	}
	if l.t.Livelock {
		loop := 0
		for _, s := range l.t.Steps[min(max(l.t.Loop, 0), len(l.t.Steps)):] {
			if s.Event == "" {
				loop++
			}
		}
		parts = append(parts, fmt.Sprintf("the loop (boxed) is the last %d", loop))
	}
	if l.folded > 0 {
		parts = append(parts, fmt.Sprintf("%d thread-local steps folded (hover for them)", l.folded))
	}
	return strings.Join(parts, ", ")
}

// placeBars draws every lock hold as a bar from the statement that takes
// the lock to the one that frees it, beside the holder's lane, in the
// first slot of its gutter that is free from the bar's top to its end;
// the lock's name goes left of the bars, at the top of its bar.
func (l *layout) placeBars() {
	open := map[string]int{} // lock -> its bar in l.bars
	for ri, r := range l.rows {
		if r.kind != rowStep {
			continue
		}
		for _, c := range r.locks {
			if b, ok := open[c.lock]; ok {
				l.bars[b].freed, l.bars[b].freedAt = ri, r.steps[0]
				delete(open, c.lock)
			}
			if c.holder == "" {
				continue
			}
			color, ok := l.lockColor[c.lock]
			if !ok {
				color = lockColors[len(l.lockColor)%len(lockColors)]
				l.lockColor[c.lock] = color
			}
			ln := l.laneOf(c.holder)
			if ln < 0 {
				ln = r.lane
			}
			open[c.lock] = len(l.bars)
			l.bars = append(l.bars, bar{lock: c.lock, holder: c.holder, lane: ln, taken: ri, freed: -1, takenAt: r.steps[0], freedAt: -1, color: color})
		}
	}
	ends := map[int][]float64{} // lane -> each slot's lowest point in use
	for i := range l.bars {
		b := &l.bars[i]
		r := l.rows[b.taken]
		b.y0 = r.y + 3
		b.y1 = l.rowsBottom
		if b.freed >= 0 {
			f := l.rows[b.freed]
			b.y1 = f.y + f.h - 3
		}
		used := ends[b.lane]
		slot := 0
		for slot < len(used) && used[slot] > b.y0 {
			slot++
		}
		if slot == len(used) {
			used = append(used, 0)
		}
		used[slot] = b.y1 + 4
		ends[b.lane] = used
		b.slot = slot
		ln := &l.lanes[b.lane]
		ln.slots = max(ln.slots, slot+1)
		ln.names = max(ln.names, runes(b.lock)*labelW+6)
	}
}

// stmtText is what a statement's row shows in its lane: "line:col
// statement", the statement cut to maxStmt characters (maxInitStmt for
// init's).
func (l *layout) stmtText(r row) (pos, stmt string) {
	s := l.t.Steps[r.steps[0]]
	n := maxStmt
	if r.lane == l.initLane() {
		n = maxInitStmt
	}
	return s.Pos.String(), cut(s.Stmt, n)
}

// cut shortens s to n characters, ending in "…" when it was longer.
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func runes(s string) float64 { return float64(len([]rune(s))) }

// placeColumns sets the lanes' widths from what they show, and the
// column of the shared variables after them.
func (l *layout) placeColumns() {
	text := make([]float64, len(l.lanes))
	changes := runes("shared variables") * charW
	initW := 0.0 // the longest statement of init, which runs on to the right
	for _, r := range l.rows {
		w := 0.0
		switch r.kind {
		case rowStep:
			pos, stmt := l.stmtText(r)
			w = (runes(pos) + 1 + runes(stmt)) * charW
			if len(r.locals) > 0 {
				w += 10 + runes(cut(strings.Join(r.locals, " "), maxLocals))*smallW
			}
			changes = max(changes, runes(l.changesText(r))*charW)
		case rowFold, rowBegin:
			w = runes(r.label) * charW
		default:
			continue
		}
		if r.lane == l.initLane() {
			initW = max(initW, w)
			continue
		}
		text[r.lane] = max(text[r.lane], w)
	}
	x := margin
	if l.loopRow >= 0 {
		x += 6 // inside the loop box
	}
	for i := range l.lanes {
		ln := &l.lanes[i]
		ln.x = x
		ln.axis = x + ln.names + float64(ln.slots)*slotW + 8
		ln.textX = ln.axis + 10
		w := max(text[i], minLaneText, runes(ln.name)*nameW)
		if i == l.initLane() {
			w = max(text[i], initText, runes(ln.name)*nameW)
		}
		ln.w = ln.textX - x + w + lanePad
		x += ln.w
	}
	l.changesX = x + 4
	if i := l.initLane(); i >= 0 {
		l.changesX = max(l.changesX, l.lanes[i].textX+initW+lanePad)
	}
	right := l.changesX + changes + margin
	if l.loopRow >= 0 {
		l.loopRight = right - margin/2
		right = l.loopRight + loopArrowW
	}
	l.width = right
	legend := 0.0
	for _, text := range l.legendItems() {
		legend += legendItemW(text)
	}
	l.width = max(l.width, margin+legend)
	for _, h := range l.header {
		w := runes(h.text) * charW
		if h.class == "title" {
			w = runes(h.text) * titleW
		}
		l.width = max(l.width, margin+w+margin)
	}
	if l.loopRow >= 0 {
		l.loopRight = max(l.loopRight, l.width-loopArrowW)
	}
}

// changesText is the text of a statement's row in the column of shared
// variables: the variables, then the locks.
func (l *layout) changesText(r row) string {
	parts := append([]string(nil), r.shared...)
	for _, c := range r.locks {
		parts = append(parts, lockWord(c))
	}
	return cut(strings.Join(parts, "  "), maxChanges)
}

func lockWord(c lockChange) string {
	if c.holder == "" {
		return "lock " + c.lock + " free"
	}
	return "lock " + c.lock + " held"
}

// gap is a stretch across a row that no axis, lock bar or lane's run
// crosses: where a label can go without covering anything.
type gap struct{ from, to float64 }

// gaps are the lanes' text areas: from just right of each lane's axis to
// just left of the next lane's lock bars (for the last lane, to the
// right edge of the rows).
func (l *layout) gaps() []gap {
	var out []gap
	for k, ln := range l.lanes {
		to := l.contentRight() - 4
		if k+1 < len(l.lanes) {
			next := l.lanes[k+1]
			to = next.x + next.names - 3
		}
		out = append(out, gap{ln.axis + 6, to})
	}
	return out
}

// wrapNotes breaks the long labels into lines, one row a line, and moves
// the rows below them down: each loop end note to the width of the loop
// box, the violation to the text area of its lane.
func (l *layout) wrapNotes() {
	gaps := l.gaps()
	var out []row
	shift := 0.0
	for _, r := range l.rows {
		r.y += shift
		perLine := 0
		switch r.kind {
		case rowLoopEnd:
			perLine = int((l.loopRight - margin - 12) / labelW)
		case rowViolation:
			perLine = int((gaps[r.lane].to - l.lanes[r.lane].textX) / charW)
		default:
			out = append(out, r)
			continue
		}
		lines := wrap(r.label, max(16, perLine))
		for k, line := range lines {
			nr := r
			nr.label = line
			nr.y = r.y + float64(k)*r.h
			out = append(out, nr)
		}
		shift += float64(len(lines)-1) * r.h
	}
	l.rows = out
	l.rowsBottom += shift
	// The axes and the bars of the locks still held end with the last
	// statement, above the loop end's notes, which thus cross nothing.
	l.stepsBottom = l.rowsTop
	for _, r := range l.rows {
		if r.kind != rowLoopEnd {
			l.stepsBottom = r.y + r.h
		}
	}
	for i := range l.bars {
		if l.bars[i].freed < 0 {
			l.bars[i].y1 = l.stepsBottom
		}
	}
}

// wrap breaks s at spaces into lines of at most n characters (a longer
// word gets a line of its own).
func wrap(s string, n int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case len([]rune(line))+1+len([]rune(w)) <= n:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}
