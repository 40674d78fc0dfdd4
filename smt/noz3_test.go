//go:build noz3

package smt

import (
	"errors"
	"testing"
)

func TestNewWithoutZ3(t *testing.T) {
	s, err := New()
	if s != nil {
		t.Errorf("New returned a solver: %v", s)
	}
	const want = "bmc was built without Z3 (build tag noz3); rebuild without -tags noz3 and with libz3-dev installed"
	if err == nil || err.Error() != want || !errors.Is(err, ErrNoZ3) {
		t.Fatalf("New: %v", err)
	}
	if Available || Version() != "" {
		t.Errorf("Available %v, Version %q", Available, Version())
	}
}
