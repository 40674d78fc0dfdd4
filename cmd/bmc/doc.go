// Command bmc is a model checker for concurrent, possibly recursive
// Boolean programs.
//
// It is the thin top of bmc's pipeline, lang -> ir -> seq/moped -> encode
// -> ts -> engine -> solver -> sat/smt: its files wire flags to the
// packages, print results and choose exit statuses, and package driver
// runs the pipeline for them (bmc export, which writes a problem out
// instead of deciding it, calls encode, engine and the solvers itself).
// It may import every bmc package; the internal ones only from its tests.
package main
