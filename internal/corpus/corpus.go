package corpus

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Case is one manifest row.
type Case struct {
	Dir      string // the bench root
	Folder   string // e.g. satabs-boppo
	File     string // relative to the folder
	Kind     string // sequential | concurrent | parameterized
	Expected string // safe | unsafe | unknown
	Source   string // how the verdict is known, with its caveats
}

// Path is the program's file path.
func (c Case) Path() string { return filepath.Join(c.Dir, c.Folder, c.File) }

// Key names the case as folder/file.
func (c Case) Key() string { return c.Folder + "/" + c.File }

// Load reads every MANIFEST.tsv below dir; none when dir is missing or
// "" (Optional's answer for a missing corpus).
func Load(dir string) ([]Case, error) {
	if dir == "" {
		return nil, nil
	}
	manifests, _ := filepath.Glob(filepath.Join(dir, "*", "MANIFEST.tsv"))
	var out []Case
	for _, m := range manifests {
		cases, err := LoadManifest(m)
		if err != nil {
			return nil, err
		}
		out = append(out, cases...)
	}
	return out, nil
}

// LoadManifest reads one folder's manifest (path names its MANIFEST.tsv):
// a case per row after the header.
func LoadManifest(path string) ([]Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	folder := filepath.Dir(path)
	var out []Case
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for first := true; sc.Scan(); first = false {
		cols := strings.Split(sc.Text(), "\t")
		if first || len(cols) < 4 {
			continue
		}
		out = append(out, Case{Dir: filepath.Dir(folder), Folder: filepath.Base(folder), File: cols[0], Kind: cols[1], Expected: cols[2], Source: cols[3]})
	}
	return out, sc.Err()
}

var (
	roundsRe  = regexp.MustCompile(`(\d+) round-robin rounds`)
	threadsRe = regexp.MustCompile(`found the target with <=(\d+) threads`)
	labelRe   = regexp.MustCompile(`-l (\S+)`)
	missesRe  = regexp.MustCompile(`a (\d+)-round bound misses it`)
)

// Bounds are the bounds a manifest names for a case.
type Bounds struct {
	Rounds     int    // round-robin rounds; 0: every interleaving
	MissRounds int    // rounds that the manifest says miss the bug; 0: none stated
	MaxThreads int    // thread bound for spawning programs
	Target     string // error label from Boppo's test.desc; "" for the defaults
}

// Bounds reads them: Getafix programs run 4 round-robin rounds (its
// shipped formulas; more when the verdict source says so); the others run
// every interleaving, with the thread count the verdict source gives for
// parameterized programs (10 for Boppo's own tests, whose Threads7 starts
// 9 threads), and the error label of Boppo's test.desc.
func (c Case) Bounds() Bounds {
	var b Bounds
	switch c.Folder {
	case "getafix-trucnguyenlam", "c2boolean-trucnguyenlam":
		b.Rounds = 4
		if m := roundsRe.FindStringSubmatch(c.Source); m != nil {
			b.Rounds, _ = strconv.Atoi(m[1])
		}
		if m := missesRe.FindStringSubmatch(c.Source); m != nil {
			b.MissRounds, _ = strconv.Atoi(m[1])
		}
	case "satabs-boppo":
		b.MaxThreads = 10
		desc, _ := os.ReadFile(filepath.Join(c.Dir, c.Folder, filepath.Dir(c.File), "test.desc"))
		if lines := strings.Split(string(desc), "\n"); len(lines) > 2 {
			if m := labelRe.FindStringSubmatch(lines[2]); m != nil {
				b.Target = m[1]
			}
		}
	default:
		b.MaxThreads = 3
		if m := threadsRe.FindStringSubmatch(c.Source); m != nil {
			b.MaxThreads, _ = strconv.Atoi(m[1])
		}
	}
	return b
}

// corrections are manifest verdicts that the program text contradicts,
// with the reason.
var corrections = map[string]struct{ verdict, reason string }{
	"getafix-trucnguyenlam/testNewformula.bp": {"safe", "SLIC_ERROR is guarded by `if (a & b & c)`, i.e. counter = 7, " +
		"but init sets the 3-bit counter to 0 and each of the three threads increments it once (saturating at 7), " +
		"so it never exceeds 3; the manifest's 'reaches SLIC_ERROR unconditionally' overlooks the guard"},
}

// Want is the verdict the tests check (safe, unsafe or unknown): the
// manifest's, unless the program text contradicts it; then why is the
// reason, else "".
func (c Case) Want() (verdict, why string) {
	if fix, ok := corrections[c.Key()]; ok {
		return fix.verdict, fix.reason
	}
	return c.Expected, ""
}
