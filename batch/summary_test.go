package batch

import (
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func rec(file, verdict, expected string, wall float64) Record {
	return Record{File: file, Flags: []string{"-k", "2"}, Verdict: verdict, Expected: expected, Wall: wall}
}

func TestSummarize(t *testing.T) {
	timedOut := rec("slow.bpl", "unknown", "safe", 20)
	timedOut.Limits = append(timedOut.Limits, struct {
		Kind string `json:"kind"`
		Text string `json:"text"`
	}{"timeout", "timeout"})
	recs := []Record{
		rec("a.bpl", "safe", "safe", 0.1),
		rec("b.bpl", "safe", "unsafe", 0.2), // disagrees
		rec("c.bpl", "unsafe", "", 0.3),
		timedOut,
		rec("d.bpl", "unknown", "depth-bound", 0.1),
		rec("e.bpl", "safe", "depth-bound", 0.1), // disagrees: a verdict where the depth bound is expected
		rec("a.bpl", "safe", "safe", 0.5),        // a.bpl again (resumed): counted once, as its last record
	}
	s := Summarize(recs)
	if s.Checks != 6 || s.Verdicts["safe"] != 3 || s.Verdicts["unknown"] != 2 || s.TimedOut != 1 {
		t.Errorf("summary %+v", s)
	}
	if len(s.Disagree) != 2 || s.Disagree[0].File != "b.bpl" || s.Disagree[1].File != "e.bpl" {
		t.Errorf("disagreements %+v", s.Disagree)
	}
	if len(s.Undecided) != 1 || s.Undecided[0].File != "slow.bpl" {
		t.Errorf("undecided %+v", s.Undecided)
	}
	if s.Slowest[0].File != "slow.bpl" || s.Slowest[1].File != "a.bpl" || s.Slowest[1].Wall != 0.5 {
		t.Errorf("slowest %+v", s.Slowest)
	}
	var b strings.Builder
	s.WriteText(&b)
	for _, want := range []string{"6 checks: safe 3, unknown 2, unsafe 1 (1 of the unknown at their --timeout)",
		"disagreements with the expected verdict: 2", "b.bpl -k 2: safe, expected unsafe",
		"undecided where a verdict is expected: 1", "slow.bpl -k 2: unknown (timeout), expected safe"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
}

// TestCactus checks that the plot is well-formed XML with a series per
// verdict and a point per check.
func TestCactus(t *testing.T) {
	for _, recs := range [][]Record{
		nil,
		{rec("a.bpl", "safe", "", 0)},
		{rec("a.bpl", "safe", "", 0.01), rec("b.bpl", "safe", "", 3), rec("c.bpl", "unsafe", "", 40), rec("d.bpl", "error", "", 0.2)},
	} {
		var b strings.Builder
		if err := Cactus(&b, recs); err != nil {
			t.Fatal(err)
		}
		d := xml.NewDecoder(strings.NewReader(b.String()))
		circles, lines := 0, 0
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("not XML: %v\n%s", err, b.String())
			}
			if se, ok := tok.(xml.StartElement); ok {
				switch se.Name.Local {
				case "circle":
					circles++
				case "polyline":
					lines++
				}
			}
		}
		verdicts := map[string]bool{}
		for _, r := range recs {
			verdicts[r.Verdict] = true
		}
		if circles != len(recs) || lines != len(verdicts) {
			t.Errorf("%d points and %d series for %d checks of %d verdicts", circles, lines, len(recs), len(verdicts))
		}
	}
}

// TestReadRecords checks that a half-written last line (a batch killed
// while it wrote) is left out, and where the complete lines end.
func TestReadRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.jsonl")
	full := `{"file":"a.bpl","flags":[],"verdict":"safe"}` + "\n" + `{"file":"b.bpl","flags":["-k","2"],"verdict":"unsafe"}` + "\n"
	write(t, path, full+`{"file":"c.bp`)
	recs, complete, err := ReadRecords(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[1].Key() != "b.bpl\t-k 2" || complete != int64(len(full)) {
		t.Errorf("records %+v, complete %d, want 2 and %d", recs, complete, len(full))
	}
	write(t, path, full+"not json\n")
	if _, _, err := ReadRecords(path); err == nil || !strings.Contains(err.Error(), "out.jsonl:3: not a batch record") {
		t.Errorf("a bad line: %v", err)
	}
	if _, _, err := ReadRecords(filepath.Join(t.TempDir(), "none")); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v", err)
	}
}
