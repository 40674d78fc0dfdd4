package batch

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// Record is one check's line in a batch's output: the document `bmc
// check --json` printed, every field kept, and what the batch adds (the
// flags, the expected verdict, the exit status, the wall time, the peak
// memory and bmc's version). A check that printed no document (killed
// by a signal, say) gets one with the verdict "error" and what ended it.
type Record struct {
	File       string   `json:"file"`
	Flags      []string `json:"flags"`
	Verdict    string   `json:"verdict"`
	Expected   string   `json:"expected,omitempty"`
	ExitStatus int      `json:"exit_status"`
	Wall       float64  `json:"wall_seconds"`
	PeakMemory int64    `json:"peak_memory_bytes"`
	Version    string   `json:"bmc_version"`
	Limits     []struct {
		Kind string `json:"kind"`
		Text string `json:"text"`
	} `json:"limits,omitempty"`
	Errors []Error `json:"errors,omitempty"`
}

// Error is an error of a check without a verdict, as `bmc check --json`
// prints it: in the program's text (with its position) or of the run.
type Error struct {
	Message string `json:"message"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
}

func (e Error) String() string {
	if e.File == "" {
		return e.Message
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Message)
}

// Key names the check of the record: its file and flags (Job.Key).
func (r Record) Key() string { return Job{File: r.File, Flags: r.Flags}.Key() }

// Decided says whether the record has a verdict.
func (r Record) Decided() bool {
	switch r.Verdict {
	case "safe", "unsafe", "livelock", "no-livelock":
		return true
	}
	return false
}

// TimedOut says whether the check's own --timeout ended it.
func (r Record) TimedOut() bool {
	for _, l := range r.Limits {
		if l.Kind == "timeout" {
			return true
		}
	}
	return false
}

// Agrees says whether the record's verdict is the expected one; true
// where none is expected or the check did not decide (a depth-bound
// expectation: an unknown at the call depth).
func (r Record) Agrees() bool {
	switch {
	case r.Expected == "":
		return true
	case r.Expected == "depth-bound":
		return r.Verdict != "safe" && r.Verdict != "unsafe"
	case !r.Decided():
		return true
	}
	return r.Verdict == r.Expected
}

// line is the record as one line of the output: doc, the check's own
// document (nil: none), with the batch's fields set over it.
func (r Record) line(doc map[string]json.RawMessage) ([]byte, error) {
	if doc == nil {
		doc = map[string]json.RawMessage{}
	}
	own, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(own, &fields); err != nil {
		return nil, err
	}
	for k, v := range fields {
		if _, ok := doc[k]; !ok || k != "limits" && k != "errors" {
			doc[k] = v
		}
	}
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(doc); err != nil { // one line, with its newline
		return nil, err
	}
	return b.Bytes(), nil
}

// ReadRecords reads a batch's output. A last line without its newline
// (a batch stopped while it wrote) is left out, and complete is the
// length of the lines read, where a resumed batch goes on writing.
func ReadRecords(path string) (recs []Record, complete int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	rd := bufio.NewReader(f)
	for n := 1; ; n++ {
		line, err := rd.ReadBytes('\n')
		if err == io.EOF {
			return recs, complete, nil // a partial last line, if any, is dropped
		}
		if err != nil {
			return nil, 0, err
		}
		complete += int64(len(line))
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var r Record
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, 0, fmt.Errorf("%s:%d: not a batch record: %v", path, n, err)
		}
		recs = append(recs, r)
	}
}

// flagsText is a record's flags for people: "(defaults)" when none.
func flagsText(flags []string) string {
	if len(flags) == 0 {
		return "(defaults)"
	}
	return strings.Join(flags, " ")
}
