package main

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"
)

// jsonRequested reports whether args ask `bmc check`, `compare` or `prove`
// for JSON. It reads the arguments before cobra does, so that cobra's own
// errors (an unknown flag, a missing file argument) are answered in JSON
// too.
func jsonRequested(args []string) bool {
	if len(args) == 0 || args[0] != "check" && args[0] != "compare" && args[0] != "prove" {
		return false
	}
	on := false
	for _, a := range args[1:] {
		if a == "--" {
			break // the rest are file arguments
		}
		if a == "--json" {
			on = true
		} else if v, ok := strings.CutPrefix(a, "--json="); ok {
			b, err := strconv.ParseBool(v)
			on = err == nil && b
		}
	}
	return on
}

// jsonErrorEntry is one error: a message, with the position in the
// program for errors in its text.
type jsonErrorEntry struct {
	Message string `json:"message"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
}

// jsonErrorDoc is the answer of `bmc check --json` (or compare) that has no verdict:
// bad input, a usage error or an internal error.
type jsonErrorDoc struct {
	File       string           `json:"file,omitempty"`
	Verdict    string           `json:"verdict"`
	ExitStatus int              `json:"exit_status"`
	Errors     []jsonErrorEntry `json:"errors"`
}

// writeJSONError prints e as one JSON document: every error of the
// program text with its position, or the one message.
func writeJSONError(w io.Writer, e *exitError) error {
	doc := jsonErrorDoc{File: e.file, Verdict: "error", ExitStatus: e.code}
	for _, se := range e.list {
		doc.Errors = append(doc.Errors, jsonErrorEntry{Message: se.Msg, File: se.File, Line: se.Pos.Line, Col: se.Pos.Col})
	}
	if e.msg != "" {
		doc.Errors = append(doc.Errors, jsonErrorEntry{Message: e.msg})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
