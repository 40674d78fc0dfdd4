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
