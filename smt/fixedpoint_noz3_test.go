//go:build noz3

package smt

import (
	"errors"
	"testing"
)

func TestNewFixedpointWithoutZ3(t *testing.T) {
	fp, err := NewFixedpoint()
	if fp != nil || !errors.Is(err, ErrNoZ3) {
		t.Fatalf("NewFixedpoint: %v, %v", fp, err)
	}
}
