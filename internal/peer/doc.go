// Package peer finds the third-party tools that tests compare bmc with:
// ABC and the z3 command (Debian packages, which make test installs),
// Moped and the AIGER tools (built by hand: no package registry has
// them).
//
// A test that needs a Debian peer fails under CI (CI=true) when the peer
// is missing, so that a cross-check cannot go quietly green; elsewhere it
// is skipped. A test that needs a hand-built peer is skipped wherever it
// is missing. Every case a test decides with a peer, and every skip for
// a missing one, is logged in a form the summary at the end of make test
// counts (scripts/testreport): "peer case: ABC: ...", "peer missing:
// Moped: ..." (skipped) and "peer required: ABC: ..." (failed, under CI).
//
// It is test support, outside bmc's pipeline; only tests import it.
package peer
