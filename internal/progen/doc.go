// Package progen generates small random concurrent Boolean programs for
// differential testing: every engine, encoding and reduction must give the
// same verdict on them as the plain explicit search.
//
// It is test support, outside bmc's pipeline (lang -> ir -> seq/moped ->
// encode -> ts -> engine -> solver -> sat/smt): it writes programs as
// source text and imports no bmc package (its own tests use ir and
// explicit), so that the tests of any stage may use it.
package progen
