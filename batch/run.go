package batch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"bmc/internal/cpus"
	"bmc/internal/tail"
)

// Config is how a batch runs its checks.
type Config struct {
	// Command runs bmc: the executable and any arguments before
	// "check".
	Command []string
	Jobs    int // checks at once; 0: the processors over CPUs
	CPUs    int // processors of each check; 0: 1
	// Cores is each check's --cores: the engines its plan keeps busy at
	// once on its processors (0: as many as the batch's processors, as
	// the check alone would).
	Cores int
	// Timeout and MaxMemory are each check's --timeout and
	// --max-memory (0 and "": bmc's defaults); a job's own flags come
	// after them and win.
	Timeout   time.Duration
	MaxMemory string
	Version   string    // bmc's, recorded in each record
	Progress  io.Writer // a line per finished check; nil: none
}

// slots is the processors of each of n checks at once, c each, from
// the ones the batch may use (shared round the list when there are
// fewer).
func slots(n, c int) [][]int {
	allowed := cpus.Allowed()
	out := make([][]int, n)
	for i := range out {
		for k := range c {
			out[i] = append(out[i], allowed[(i*c+k)%len(allowed)])
		}
	}
	return out
}

// Defaults completes cfg: CPUs 1, Jobs the processors the batch may
// use over CPUs (at least 1), and Cores those processors.
func (cfg *Config) Defaults() {
	allowed := len(cpus.Allowed())
	if cfg.CPUs <= 0 {
		cfg.CPUs = 1
	}
	if cfg.Jobs <= 0 {
		cfg.Jobs = max(1, allowed/cfg.CPUs)
	}
	if cfg.Cores <= 0 {
		cfg.Cores = allowed
	}
}

// graceAfterTimeout is how long a check may overrun its own --timeout
// before the batch kills it: bmc ends within a second of its timeout,
// and a check that does not has hung.
const graceAfterTimeout = 30 * time.Second

// Run runs the jobs, cfg.Jobs at a time, each on its processors, and
// writes a record per finished check to out as it finishes (one write
// per line). When ctx ends, the running checks are killed and go
// unrecorded, so that --resume runs them again; Run then returns
// ctx's error with the records written so far.
func Run(ctx context.Context, cfg Config, jobs []Job, out io.Writer) ([]Record, error) {
	cfg.Defaults()
	start := time.Now()
	var (
		mu       sync.Mutex
		recs     []Record
		writeErr error
		counts   = map[string]int{}
	)
	todo := make(chan Job)
	var wg sync.WaitGroup
	for _, slot := range slots(cfg.Jobs, cfg.CPUs) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for job := range todo {
				rec, doc, ok := check(ctx, cfg, slot, job)
				if !ok {
					continue // stopped: not recorded
				}
				line, err := rec.line(doc)
				mu.Lock()
				if err == nil {
					_, err = out.Write(line)
				}
				if err != nil && writeErr == nil {
					writeErr = err
				}
				recs = append(recs, rec)
				counts[rec.Verdict]++
				if cfg.Progress != nil {
					fmt.Fprintln(cfg.Progress, progressLine(len(recs), len(jobs), counts, time.Since(start), rec))
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, job := range jobs {
		select {
		case todo <- job:
		case <-ctx.Done():
			break feed
		}
	}
	close(todo)
	wg.Wait()
	if writeErr != nil {
		return recs, writeErr
	}
	return recs, ctx.Err()
}

// progressLine says how far the batch is: the check that finished, the
// counts by verdict, and when the batch should end at its pace so far.
func progressLine(done, total int, counts map[string]int, elapsed time.Duration, rec Record) string {
	var verdicts []string
	for v, n := range counts {
		verdicts = append(verdicts, fmt.Sprintf("%s %d", v, n))
	}
	sort.Strings(verdicts)
	eta := time.Duration(float64(elapsed) / float64(done) * float64(total-done)).Round(time.Second)
	return fmt.Sprintf("[%d/%d] %s %.2fs %s %s; %s; about %s left",
		done, total, rec.Verdict, rec.Wall, rec.File, flagsText(rec.Flags), strings.Join(verdicts, ", "), eta)
}

// check runs one job as `bmc check --json` on the processors slot and
// makes its record, with the document it printed; ok false when ctx
// ended first.
func check(ctx context.Context, cfg Config, slot []int, job Job) (rec Record, doc map[string]json.RawMessage, ok bool) {
	args := append(append([]string{}, cfg.Command[1:]...), "check", "--json", "--quiet", "--cores", strconv.Itoa(cfg.Cores))
	if cfg.Timeout > 0 {
		args = append(args, "--timeout", cfg.Timeout.String())
	}
	if cfg.MaxMemory != "" {
		args = append(args, "--max-memory", cfg.MaxMemory)
	}
	args = append(append(args, job.Flags...), "--", job.File)
	cmd := exec.Command(cfg.Command[0], args...)
	var stdout bytes.Buffer
	stderr := &tail.Buffer{}
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	inGroup(cmd)
	rec = Record{File: job.File, Flags: flagsOrNone(job.Flags), Expected: job.Expected, Version: cfg.Version}
	began := time.Now()
	if err := startOn(cmd, slot); err != nil {
		rec.Verdict, rec.ExitStatus = "error", -1
		rec.Errors = append(rec.Errors, Error{Message: fmt.Sprintf("starting bmc: %v", err)})
		return rec, nil, true
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var hung <-chan time.Time
	if cfg.Timeout > 0 {
		t := time.NewTimer(cfg.Timeout + graceAfterTimeout)
		defer t.Stop()
		hung = t.C
	}
	var werr error
	var why string
	select {
	case werr = <-waited:
	case <-ctx.Done():
		killGroup(cmd)
		<-waited
		return rec, nil, false
	case <-hung:
		killGroup(cmd)
		werr = <-waited
		why = fmt.Sprintf("killed by the batch %s after its --timeout", graceAfterTimeout)
	}
	rec.Wall = time.Since(began).Seconds()
	rec.PeakMemory = peakMemory(cmd.ProcessState)
	rec.ExitStatus = cmd.ProcessState.ExitCode()
	if why == "" && json.Unmarshal(stdout.Bytes(), &doc) == nil {
		var printed Record // the verdict, limits and errors the check printed
		json.Unmarshal(stdout.Bytes(), &printed)
		rec.Verdict, rec.Limits, rec.Errors = printed.Verdict, printed.Limits, printed.Errors
		return rec, doc, true
	}
	doc = nil
	if why == "" {
		why = fmt.Sprintf("bmc check ended (%v) without an answer", werr)
	}
	if s := stderr.String(); s != "" {
		why += ": " + lastLine(s)
	}
	rec.Verdict = "error"
	rec.Errors = append(rec.Errors, Error{Message: why})
	return rec, nil, true
}

func flagsOrNone(flags []string) []string {
	if flags == nil {
		return []string{}
	}
	return flags
}

// startOn starts cmd on the processors slot: from a thread kept on
// them, whose processors the child inherits; the thread is dropped
// afterwards (a goroutine that ends locked ends its thread).
func startOn(cmd *exec.Cmd, slot []int) error {
	if !cpus.Pinnable {
		return cmd.Start()
	}
	done := make(chan error)
	go func() {
		runtime.LockOSThread()
		cpus.PinThread(slot...)
		done <- cmd.Start()
	}()
	return <-done
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
