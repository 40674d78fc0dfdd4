package result

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// Within words the bounds the verdict holds under, the call depth last:
// "2 round-robin rounds, call depth 5", "any call depth (no execution
// reaches depth 16)"; "" when there are none to name (a sequential
// program without recursion).
func (r *Result) Within() string {
	var parts []string
	if r.Bounds != "" {
		parts = append(parts, r.Bounds)
	}
	switch {
	case r.AnyDepth && r.Depth > 0:
		parts = append(parts, fmt.Sprintf("any call depth (no execution reaches depth %d)", r.Depth))
	case r.AnyDepth:
		parts = append(parts, "any call depth")
	case r.Depth > 0:
		parts = append(parts, fmt.Sprintf("call depth %d", r.Depth))
	}
	return strings.Join(parts, ", ")
}

// within is " within " and the bounds, or "" when there are none, so
// that no sentence names an empty bound.
func (r *Result) within() string {
	if w := r.Within(); w != "" {
		return " within " + w
	}
	return ""
}

// WriteText prints the result for a person: the verdict with its bounds,
// and for a violation the interleaved trace.
func (r *Result) WriteText(out io.Writer, file string) {
	w := bufio.NewWriter(out) // a trace of thousands of steps: one write, not one a cell
	defer w.Flush()
	within := r.within()
	stats := fmt.Sprintf("%s, %.2fs", r.Engine, r.Elapsed.Seconds())
	if r.Stats != "" {
		stats = fmt.Sprintf("%s, %s, %.2fs", r.Engine, r.Stats, r.Elapsed.Seconds())
	}
	switch r.Verdict {
	case Safe:
		if r.Lasso {
			if r.Proof != "" {
				fmt.Fprintf(w, "%s: no livelock: proved: none%s (%s; %s)\n", file, within, r.Proof, stats)
				break
			}
			if r.AnyDepth {
				fmt.Fprintf(w, "%s: no livelock at any call depth: none%s (%s)\n", file, within, stats)
				break
			}
			fmt.Fprintf(w, "%s: no livelock%s (%s)\n", file, within, stats)
			break
		}
		if r.AnyDepth && r.Proof == "" {
			fmt.Fprintf(w, "%s: safe at any call depth: no violation%s (%s)\n", file, within, stats)
			break
		}
		if r.AnyDepth {
			fmt.Fprintf(w, "%s: safe at any call depth: proved: no violation%s (%s; %s)\n", file, within, r.Proof, stats)
			break
		}
		if r.Proof != "" {
			fmt.Fprintf(w, "%s: safe: proved: no violation%s (%s; %s)\n", file, within, r.Proof, stats)
			break
		}
		fmt.Fprintf(w, "%s: safe: no violation%s (%s)\n", file, within, stats)
	case Unknown:
		what := "violation"
		if r.Lasso {
			what = "livelock"
		}
		fmt.Fprintf(w, "%s: unknown: no %s found%s, but the search was incomplete: %s (%s)\n",
			file, what, within, r.LimitText(), stats)
		if r.Advice != "" {
			fmt.Fprintf(w, "%s: to decide it: %s\n", file, r.Advice)
		}
		if t := r.CTI; t != nil {
			fmt.Fprintf(w, "%s: %s, %d steps:\n", file, t.Violation, t.Statements())
			t.writeSteps(w)
		}
	case Unsafe:
		t := r.Trace
		if t.Livelock {
			fmt.Fprintf(w, "%s:%s: %s\n", t.File, t.Pos, t.Violation) // "fair livelock: ..."
			fmt.Fprintf(w, "trace (%d steps; the loop, marked, is the last %d):\n", t.Statements(), t.loopStatements())
			t.writeSteps(w)
			fmt.Fprintf(w, "%s: livelock found%s (%s)\n", file, within, stats)
			break
		}
		fmt.Fprintf(w, "%s:%s: violation: %s\n", t.File, t.Pos, t.Violation)
		if t.Switches > 0 {
			fmt.Fprintf(w, "trace (%d steps, %s):\n", t.Statements(), Plural(t.Switches, "context switch"))
		} else {
			fmt.Fprintf(w, "trace (%d steps):\n", t.Statements())
		}
		t.writeSteps(w)
		fmt.Fprintf(w, "%s: unsafe: violation found%s (%s)\n", file, within, stats)
	}
}

// writeSteps prints the steps of t, one per line, in aligned columns.
func (t *Trace) writeSteps(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, s := range t.Steps {
		if s.Event != "" {
			fmt.Fprintf(tw, "  ---- %s\n", s.Event)
			continue
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", s.Thread, s.Pos, s.Stmt, strings.Join(s.Changes, " "))
	}
	tw.Flush()
}

// Statements is the number of executed statements in the trace
// (scheduling events excluded).
func (t *Trace) Statements() int {
	n := 0
	for _, s := range t.Steps {
		if s.Event == "" {
			n++
		}
	}
	return n
}

// loopStatements is the number of executed statements in the loop of a
// livelock.
func (t *Trace) loopStatements() int {
	n := 0
	for _, s := range t.Steps[t.Loop:] {
		if s.Event == "" {
			n++
		}
	}
	return n
}

// Incomplete reports whether the search stopped at a timeout, the memory
// or state limit, or a solver or proof engine's own stop, so that the
// verdict says nothing about the bounds.
func (r *Result) Incomplete() bool {
	return slices.ContainsFunc(r.Limits, func(l Limit) bool { return l.Kind.Incomplete() })
}

// DepthHit reports whether an execution within the bounds made a call
// beyond the call depth.
func (r *Result) DepthHit() bool { return r.Has(LimitDepth) }

// Settled reports whether r answers its question as well as any engine
// could: a verdict, or unknown only because executions within the bounds
// reach the call depth or the thread bound (a complete search that no
// other engine can take further).
func (r *Result) Settled() bool {
	if r.Verdict != Unknown {
		return true
	}
	return len(r.Limits) > 0 && !slices.ContainsFunc(r.Limits, func(l Limit) bool {
		return l.Kind != LimitDepth && l.Kind != LimitThreads && l.Kind != LimitProved
	})
}

type jsonStep struct {
	Step
	Line int `json:"line,omitempty"`
	Col  int `json:"col,omitempty"`
}

type jsonResult struct {
	File     string  `json:"file"`
	Engine   string  `json:"engine"`
	Verdict  string  `json:"verdict"`
	Bounds   string  `json:"bounds"`
	Depth    int     `json:"depth,omitempty"`
	Limits   []Limit `json:"limits,omitempty"`
	Advice   string  `json:"advice,omitempty"`
	States   int     `json:"states,omitempty"`
	Proof    string  `json:"proof,omitempty"`
	Method   string  `json:"method,omitempty"`
	K        int     `json:"k,omitempty"`
	AnyDepth bool    `json:"any_depth,omitempty"`
	// AnyThreads and Threads: see Result.
	AnyThreads bool       `json:"any_threads,omitempty"`
	Threads    int        `json:"threads,omitempty"`
	Stats      string     `json:"stats"`
	Seconds    float64    `json:"seconds"`
	Violation  *jsonViol  `json:"violation,omitempty"`
	Trace      []jsonStep `json:"trace,omitempty"`
	// LoopStart is, for a livelock, the index in Trace where the loop
	// (the steps that repeat forever) starts.
	LoopStart *int `json:"loop_start,omitempty"`
	// CTI is a counterexample to induction (not a bug).
	CTI []jsonStep `json:"counterexample_to_induction,omitempty"`
	// Plan lists the engines the run raced, Winner the one that
	// answered.
	Plan   []jsonCandidate `json:"plan,omitempty"`
	Winner string          `json:"winner,omitempty"`
}

type jsonCandidate struct {
	Candidate
	After float64 `json:"after_seconds,omitempty"`
}

type jsonViol struct {
	Message  string `json:"message"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Switches int    `json:"context_switches"`
	Depth    int    `json:"call_depth"` // the frames the trace needs
}

// WriteJSON prints the result as one JSON object.
func (r *Result) WriteJSON(w io.Writer, file string) error {
	verdict := r.Verdict.String()
	if r.Lasso && r.Verdict != Unknown {
		verdict = map[Verdict]string{Safe: "no-livelock", Unsafe: "livelock"}[r.Verdict]
	}
	out := jsonResult{File: file, Engine: r.Engine, Verdict: verdict, Bounds: r.Within(), Depth: r.Depth,
		Limits: r.Limits, Advice: r.Advice, States: r.States, Proof: r.Proof, Method: r.Method, K: r.K, AnyDepth: r.AnyDepth, AnyThreads: r.AnyThreads, Threads: r.Threads, Stats: r.Stats, Seconds: r.Elapsed.Seconds()}
	if t := r.Trace; t != nil {
		out.Violation = &jsonViol{Message: t.Violation, File: t.File, Line: t.Pos.Line, Col: t.Pos.Col, Switches: t.Switches, Depth: t.Depth}
		for _, s := range t.Steps {
			out.Trace = append(out.Trace, jsonStep{Step: s, Line: s.Pos.Line, Col: s.Pos.Col})
		}
		if t.Livelock {
			out.LoopStart = &t.Loop
		}
	}
	if t := r.CTI; t != nil {
		for _, s := range t.Steps {
			out.CTI = append(out.CTI, jsonStep{Step: s, Line: s.Pos.Line, Col: s.Pos.Col})
		}
	}
	for _, c := range r.Plan {
		out.Plan = append(out.Plan, jsonCandidate{c, c.After.Seconds()})
	}
	out.Winner = r.Winner
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// Plural words a count of things: "1 thread", "2 threads", "3 context
// switches".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "ch") {
		return fmt.Sprintf("%d %ses", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
