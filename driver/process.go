package driver

import (
	"bufio"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"bmc/internal/budget"
	"bmc/internal/cpus"
	"bmc/internal/halt"
	"bmc/internal/tail"
	"bmc/result"
)

// Where the caller gives the command line of the run (Options.Command),
// a plan with several candidates runs each in a process of its own: the
// same command, with candidateEnv set to "index cpu", makes the same plan
// and runs only candidate index, pinned to processor cpu, and sends its
// answer back on descriptor 3 and its progress lines on descriptor 4.
// Apart, the candidates share no heap, collector or scheduler, and each
// keeps its processor's caches: the explicit engine on Bluetooth with
// one adder and three stoppers took 0.30 s alone, 0.35 s beside a BMC
// process pinned to the other core, and 0.47 to 0.50 s beside it
// unpinned or in one process with it (docs/BENCHMARKS.md, "Bounded safety").
// A loser is killed. The run's limits stay with the parent, which counts
// its candidates' memory as its own: when one ends the run, the parent
// names it on each candidate's standard input ("timeout", "memory 4G",
// "stop <why>"), and the candidate answers with what it found so far
// (its states, its bound), as an engine in the parent's process would.
const candidateEnv = "BMC_CANDIDATE_PROCESS"

// answerGrace is how long a candidate told that the run ended may take
// to answer before it is killed: engines stop within a slice of their
// work.
const answerGrace = time.Second

// candidateProcess is what candidateEnv gives a candidate's process:
// its candidate, its processor, and its share of the memory limit (0:
// none), which its collector keeps to.
type candidateProcess struct {
	index, cpu int
	memory     int64
}

// thisCandidate is the candidate this process runs for its parent; ok
// false in a process that was not started as one.
func thisCandidate() (candidateProcess, bool) {
	v, ok := os.LookupEnv(candidateEnv)
	if !ok {
		return candidateProcess{}, false
	}
	var cp candidateProcess
	if _, err := fmt.Sscan(v, &cp.index, &cp.cpu, &cp.memory); err != nil {
		return candidateProcess{}, false
	}
	return cp, true
}

// reply is a candidate's answer as its process sends it.
type reply struct {
	Result *result.Result
	Err    string
	Usage  bool // Err is a UsageError's
	Cause  bool // Err is why the run ended, as the parent named it
}

// serve runs the candidate this process was started for and sends its
// answer to the parent; the command that started the process then
// prints it where no one reads it.
func (pl *Plan) serve(ctx context.Context, cp candidateProcess, progress io.Writer) (*result.Result, error) {
	if cp.index < 0 || cp.index >= len(pl.Candidates) {
		return nil, fmt.Errorf("internal error: candidate %d of a plan of %d", cp.index, len(pl.Candidates))
	}
	cpus.PinProcess(cp.cpu)
	runtime.GOMAXPROCS(1)
	out := os.NewFile(3, "answer")
	if progress != nil {
		progress = os.NewFile(4, "progress")
	}
	// The candidate holds the process's one core; its own race borrows
	// only the cores the parent lends it once the other candidates have
	// ended (candidateLimit).
	c := budget.NewCores(0)
	go func() {
		pinned := []int{cp.cpu}
		for {
			select {
			case cpu := <-lentCores(ctx):
				pinned = append(pinned, cpu)
				cpus.PinProcess(pinned...)
				runtime.GOMAXPROCS(len(pinned))
				c.Give(cpu)
			case <-ctx.Done():
				return
			}
		}
	}()
	res, err := pl.Candidates[cp.index].Run(budget.WithCores(ctx, c), progress)
	r := reply{Result: res}
	if err != nil {
		var ue *result.UsageError
		r.Err, r.Usage = err.Error(), errors.As(err, &ue)
		r.Cause = ctx.Err() != nil && errors.Is(err, context.Cause(ctx))
	}
	if werr := gob.NewEncoder(out).Encode(r); werr != nil && err == nil {
		err = fmt.Errorf("sending the answer: %w", werr)
	}
	out.Close()
	return res, err
}

// candidateLimit is Limit in a candidate's process: the parent holds the
// time and memory limits and names the one that ends the run on the
// process's standard input; its end without a word (the parent is gone)
// stops the run too. Before that, the parent may lend the process the
// cores of candidates that ended ("core <cpu>", see lentCores). The
// collector keeps the heap within the process's share of the memory
// limit, as it keeps a run in one process within all of it.
func candidateLimit(parent context.Context, cp candidateProcess, maxMemory int64) (context.Context, context.CancelFunc) {
	if lentCores(parent) != nil {
		// Within the run's limits already (the command's, then the
		// run's): one reader of the parent's words.
		return context.WithCancel(parent)
	}
	ctx, cancel := context.WithCancelCause(parent)
	old := debug.SetMemoryLimit(math.MaxInt64)
	if maxMemory > 0 {
		ctx = budget.WithMemoryLimit(ctx, maxMemory)
	}
	if cp.memory > 0 {
		debug.SetMemoryLimit(cp.memory)
	}
	lent := make(chan int, len(cpus.Allowed()))
	ctx = context.WithValue(ctx, lentKey{}, lent)
	go func() {
		in := bufio.NewReader(os.Stdin)
		for {
			line, _ := in.ReadString('\n')
			word, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
			switch word {
			case "core":
				if cpu, err := strconv.Atoi(rest); err == nil {
					select {
					case lent <- cpu:
					default: // more cores than processors: no use
					}
					continue
				}
				cancel(fmt.Errorf("internal error: the parent said %q", line))
			case "timeout":
				cancel(context.DeadlineExceeded)
			case "memory":
				cancel(&halt.MemoryLimitError{Limit: rest})
			case "stop":
				cancel(errors.New(rest))
			default:
				cancel(errors.New("the run ended"))
			}
			return
		}
	}()
	return ctx, func() {
		cancel(context.Canceled)
		debug.SetMemoryLimit(old)
	}
}

type lentKey struct{}

// lentCores yields the processors the parent lends a candidate's process
// (candidateLimit); nil, which never yields, in any other process.
func lentCores(ctx context.Context) <-chan int {
	lent, _ := ctx.Value(lentKey{}).(chan int)
	return lent
}

// whyEnded is the line that tells a candidate's process why the run
// ended (see candidateLimit).
func whyEnded(ctx context.Context) string {
	cause := context.Cause(ctx)
	var mem *halt.MemoryLimitError
	switch {
	case cause == nil || errors.Is(cause, context.DeadlineExceeded):
		return "timeout\n"
	case errors.As(cause, &mem):
		return "memory " + mem.Limit + "\n"
	}
	return "stop " + strings.ReplaceAll(cause.Error(), "\n", " ") + "\n"
}

// children are the candidates' processes running now, whose memory the
// run's limit counts (residentBytes).
var children struct {
	mu   sync.Mutex
	pids map[int]bool
}

func addChild(pid int, running bool) {
	children.mu.Lock()
	defer children.mu.Unlock()
	if children.pids == nil {
		children.pids = map[int]bool{}
	}
	if running {
		children.pids[pid] = true
	} else {
		delete(children.pids, pid)
	}
}

// childrenBytes is the resident memory of the candidates' processes.
func childrenBytes() int64 {
	children.mu.Lock()
	defer children.mu.Unlock()
	total := int64(0)
	for pid := range children.pids {
		total += statmBytes("/proc/" + strconv.Itoa(pid) + "/statm")
	}
	return total
}

// runProcess runs candidate i as a process pinned to processor cpu (see
// candidateEnv), and lends it the processors that come on lend. When
// ctx ends because the run's limits (the context outer) ended, the
// process is told why and answers; when the run ends otherwise (another
// candidate won), it is killed.
func (pl *Plan) runProcess(outer, ctx context.Context, i, cpu int, lend <-chan int, progress io.Writer) (*result.Result, error) {
	name := pl.Candidates[i].Name
	c, err := pl.startProcess(outer, i, cpu, progress)
	if err != nil {
		return nil, fmt.Errorf("starting the candidate %s: %w", name, err)
	}
	defer addChild(c.cmd.Process.Pid, false)
	r, ok := c.await(outer, ctx, lend)
	werr := c.cmd.Wait()
	<-c.copied
	switch {
	case ok && r.Err == "":
		return r.Result, nil
	case ok && r.Usage:
		return nil, &result.UsageError{Msg: r.Err}
	case ok && r.Cause && outer.Err() != nil:
		return nil, context.Cause(outer)
	case ok:
		return nil, errors.New(r.Err)
	case ctx.Err() != nil:
		// Stopped before it answered: what an engine stopped at once
		// reports.
		return &result.Result{Engine: name, Verdict: result.Unknown,
			Limits: []result.Limit{result.Stopped(ctx, "")}, Stats: "stopped before it answered"}, nil
	}
	return nil, fmt.Errorf("internal error: the candidate %s ended without an answer (%v): %s", name, werr, c.stderr.String())
}

// candidateRun is a candidate's process while it runs: its standard
// input (the parent's words), its answer once it has one, and its
// progress copied until copied closes.
type candidateRun struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	stderr  *tail.Buffer
	answers chan reply // closed without one when the process ends without an answer
	copied  chan struct{}
}

// startProcess starts candidate i as a process pinned to processor cpu,
// with its share of the memory limit.
func (pl *Plan) startProcess(outer context.Context, i, cpu int, progress io.Writer) (*candidateRun, error) {
	cmd := exec.Command(pl.command[0], pl.command[1:]...)
	share := budget.MemoryLimit(outer) / int64(pl.Cores) * 9 / 10 // the parent keeps a little
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d %d %d", candidateEnv, i, cpu, share))
	answerR, answerW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	progressR, progressW, err := os.Pipe()
	if err != nil {
		answerR.Close()
		answerW.Close()
		return nil, err
	}
	cmd.ExtraFiles = []*os.File{answerW, progressW}
	c := &candidateRun{cmd: cmd, stderr: &tail.Buffer{}, answers: make(chan reply, 1), copied: make(chan struct{})}
	if c.stdin, err = cmd.StdinPipe(); err == nil {
		cmd.Stderr = c.stderr
		err = cmd.Start()
	}
	answerW.Close()
	progressW.Close()
	if err != nil {
		answerR.Close()
		progressR.Close()
		return nil, err
	}
	addChild(cmd.Process.Pid, true)
	go func() {
		defer close(c.copied)
		defer progressR.Close()
		sc := bufio.NewScanner(progressR)
		for sc.Scan() {
			if progress != nil {
				fmt.Fprintln(progress, sc.Text())
			}
		}
	}()
	go func() {
		defer answerR.Close()
		var r reply
		if gob.NewDecoder(answerR).Decode(&r) != nil {
			close(c.answers)
			return
		}
		c.answers <- r
	}()
	return c, nil
}

// await waits for the process's answer, lending it the processors that
// come on lend. When ctx ends because the run's limits (outer) ended,
// the process is told why and answers; when the run ends otherwise
// (another candidate won), it is killed. ok is false without an answer.
func (c *candidateRun) await(outer, ctx context.Context, lend <-chan int) (r reply, ok bool) {
	defer c.stdin.Close()
	for {
		select {
		case lent := <-lend:
			fmt.Fprintf(c.stdin, "core %d\n", lent)
			continue
		case r, ok = <-c.answers:
		case <-ctx.Done():
			if outer.Err() == nil {
				c.cmd.Process.Kill() // another candidate won
				return r, false
			}
			io.WriteString(c.stdin, whyEnded(outer))
			select {
			case r, ok = <-c.answers:
			case <-time.After(answerGrace):
				c.cmd.Process.Kill()
			}
		}
		return r, ok
	}
}
