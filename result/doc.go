// Package result is the vocabulary every engine and the driver share: a
// verdict with the bounds it holds under and the limits that left it
// open (Result), the counterexample in the program's own lines (Trace,
// Step), the program steps an engine's witness is read back as, to be
// replayed on the explicit interpreter (ReplayStep), and the text and
// JSON reports. It keeps them apart from the engines that produce them,
// as go-air/reach keeps Result and Trace at its root, so that a package
// can speak of results without importing the oracle that checks them.
//
// It imports only ir and lang (edges and source positions) and
// internal/halt (why a context ended).
package result
