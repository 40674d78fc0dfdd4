package soak

import (
	"os"
	"strconv"
)

// On says whether the tests soak: BMC_SOAK is set to a true value.
func On() bool {
	on, _ := strconv.ParseBool(os.Getenv("BMC_SOAK"))
	return on
}

// Seeds is how many random programs a suite runs: ci in make test,
// soak under make soak.
func Seeds(ci, soak int) int {
	if On() {
		return soak
	}
	return ci
}

// Range is the seeds a suite runs, first to last: a window of them in
// make test (one that holds the cases the suite must see), 1 to
// soakLast under make soak.
func Range(first, last, soakLast int64) (int64, int64) {
	if On() {
		return 1, soakLast
	}
	return first, last
}
