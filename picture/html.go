package picture

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"bmc/result"
)

// TraceHTML writes the picture of t as a self-contained HTML page: the
// SVG, a panel that shows the source lines around the step under the
// pointer (CSS only: each line's snippet is in the page, and a :has()
// rule shows it), and the program's source, its executed lines marked
// and the hovered step's line lit. The page is also well-formed XML.
func TraceHTML(w io.Writer, t *result.Trace, o Options) error {
	if t == nil {
		return errors.New("picture: no trace to draw")
	}
	l := build(t, o)
	var b strings.Builder
	title := "bmc trace: " + l.header[1].text
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>%s</title>\n", esc(title))
	fmt.Fprintf(&b, "<style>%s", pageStyle)
	lines := l.usedLines()
	for _, u := range lines {
		fmt.Fprintf(&b, "body:has(.%s:hover) #snip%s{display:block}\n", u.class, u.class[1:])
		fmt.Fprintf(&b, "body:has(.%s:hover) #src%s{background:#ffe58a}\n", u.class, u.class[1:])
	}
	b.WriteString("</style>\n</head>\n<body>\n<div class=\"picture\">\n")
	l.svg(&b)
	b.WriteString("</div>\n<div class=\"panel\">\n")
	for _, u := range lines {
		l.snippet(&b, u)
	}
	b.WriteString("</div>\n")
	l.listing(&b, lines)
	b.WriteString("</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// pageStyle is the page's style sheet around the picture.
const pageStyle = `
body{margin:0;padding:12px;background:#fff;color:#222;font-family:"DejaVu Sans Mono","Liberation Mono",Menlo,Consolas,"Courier New",monospace;font-size:12px}
.picture{overflow-x:auto}
.picture svg{display:block}
.panel{position:fixed;right:12px;bottom:12px;max-width:90ch;max-height:60vh;overflow:hidden;pointer-events:none}
.snip{display:none;background:#fffbe8;border:1px solid #d9c27a;border-radius:4px;padding:6px 10px;margin-top:6px;box-shadow:0 1px 5px rgba(0,0,0,.25)}
.snip .where{font-weight:bold;color:#555}
.snip pre,.source pre{margin:4px 0 0;font:inherit;line-height:1.35}
.snip .hit{background:#ffe58a;font-weight:bold}
.no{color:#999}
.source{margin-top:24px;border-top:1px solid #ddd}
.source h2{font-size:13px;color:#555}
.source .ran .no{color:#1f6fb4;font-weight:bold}
`

// usedLine is a source line that a statement of the trace executes.
type usedLine struct {
	class string // "L0-87", see lineClass
	file  string
	line  int
	procs []string // the functions whose statements on the line ran
}

// usedLines lists the source lines the trace's statements execute, in
// order of first execution.
func (l *layout) usedLines() []usedLine {
	var out []usedLine
	for _, s := range l.t.Steps {
		c := l.lineClass(s)
		if s.Event != "" || c == "" {
			continue
		}
		k := slices.IndexFunc(out, func(u usedLine) bool { return u.class == c })
		if k < 0 {
			out = append(out, usedLine{class: c, file: s.File, line: s.Pos.Line})
			k = len(out) - 1
		}
		if s.Proc != "" && !slices.Contains(out[k].procs, s.Proc) {
			out[k].procs = append(out[k].procs, s.Proc)
		}
	}
	return out
}

// snippetLines is how many lines a snippet shows either side of its line.
const snippetLines = 3

// snippet writes the panel entry of a source line: the lines around it,
// the line lit.
func (l *layout) snippet(b *strings.Builder, u usedLine) {
	where := fmt.Sprintf("%s, line %d", u.file, u.line)
	if len(u.procs) > 0 {
		where += " (in " + strings.Join(u.procs, ", ") + ")"
	}
	fmt.Fprintf(b, "<div class=\"snip\" id=\"snip%s\"><div class=\"where\">%s</div><pre>", u.class[1:], esc(where))
	all := l.o.Sources[u.file]
	for n := max(1, u.line-snippetLines); n <= min(len(all), u.line+snippetLines); n++ {
		text, _ := l.sourceLine(u.file, n)
		line := fmt.Sprintf("<span class=\"no\">%5d</span>  %s", n, esc(text))
		if n == u.line {
			line = "<span class=\"hit\">" + line + "</span>"
		}
		b.WriteString(line + "\n")
	}
	b.WriteString("</pre></div>\n")
}

// listing writes each source file whole, its executed lines marked.
func (l *layout) listing(b *strings.Builder, used []usedLine) {
	for fi, file := range l.files() {
		fmt.Fprintf(b, "<section class=\"source\">\n<h2>%s</h2>\n<pre>", esc(file))
		for n := range l.o.Sources[file] {
			text, _ := l.sourceLine(file, n+1)
			id := fmt.Sprintf("%d-%d", fi, n+1)
			class := "line"
			if slices.ContainsFunc(used, func(u usedLine) bool { return u.class == "L"+id }) {
				class = "line ran"
			}
			fmt.Fprintf(b, "<span class=\"%s\" id=\"src%s\"><span class=\"no\">%5d</span>  %s</span>\n", class, id, n+1, esc(text))
		}
		b.WriteString("</pre>\n</section>\n")
	}
}
