package moped

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// Find returns the path of the Moped executable exe: a path as given, a
// bare name ("moped") looked up on PATH.
func Find(exe string) (string, error) {
	path, err := exec.LookPath(exe)
	if err != nil {
		return "", fmt.Errorf("moped: %q not found: %v", exe, errors.Unwrap(err))
	}
	return path, nil
}

// Run asks the Moped executable exe whether Label is reachable in the
// program file (printed by Format): Moped prints YES. or NO.. An error
// carries what Moped printed when it gave neither; when ctx ends first,
// Moped is killed and the error is ctx's cause.
func Run(ctx context.Context, exe, file string) (reachable bool, err error) {
	args := Command(exe, file)
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if ctx.Err() != nil {
		return false, context.Cause(ctx)
	}
	out := strings.Fields(stdout.String())
	if err == nil && len(out) > 0 {
		switch out[len(out)-1] {
		case "YES.":
			return true, nil
		case "NO.":
			return false, nil
		}
	}
	said := strings.TrimSpace(stdout.String() + "\n" + stderr.String())
	if len(said) > 600 {
		said = said[:600] + "..."
	}
	if err == nil {
		err = errors.New("no YES. or NO.")
	}
	return false, fmt.Errorf("moped: %s: %v: %s", strings.Join(args, " "), err, said)
}
