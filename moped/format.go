package moped

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"bmc/decompile"
	"bmc/ir"
)

// Format writes p, lowered (Lower), in the syntax Moped reads; Moped's
// question is then whether Label is reachable. The text is checked by
// CheckText before it is written: a failure is a bug in bmc. Nothing is
// written when an error is returned; when ctx ends first, the error is
// its cause.
func Format(ctx context.Context, w io.Writer, p *ir.Program) error {
	low, err := Lower(ctx, p)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := decompile.WriteSyntax(ctx, &buf, low, decompile.Moped); err != nil {
		return err
	}
	if err := CheckText(buf.Bytes(), Label); err != nil {
		return fmt.Errorf("moped: the printed program is not what Moped reads: %v", err)
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// Command is the command line that asks the Moped executable exe whether
// Label is reachable in file: -b a Boolean program, -r reachability, -s0
// no statistics.
func Command(exe, file string) []string {
	return []string{exe, "-b", "-r", "-s0", file, Label}
}
