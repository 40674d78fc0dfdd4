// Package soak sizes the random differential suites. make test runs each
// with a fixed sample of seeds that CI can afford; make soak
// (BMC_SOAK=1) runs them with many more, for the days a change touches
// an engine (docs/USAGE.md, "Testing bmc", lists both counts).
//
// It is test support, outside bmc's pipeline; only tests import it.
package soak
