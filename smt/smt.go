package smt

import "errors"

// ErrNoZ3 is the error New returns in a build without Z3.
var ErrNoZ3 = errors.New("bmc was built without Z3 (build tag noz3); rebuild without -tags noz3 and with libz3-dev installed")
