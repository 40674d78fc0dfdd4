// Package explicit is the reference checker: an explicit-state
// interpreter that enumerates every interleaving of a concurrent Boolean
// program within the given bounds. It is deliberately plain, because the
// SAT engines are tested against it and every counterexample is replayed
// on it.
//
// It stands beside bmc's pipeline, lang -> ir -> seq/moped -> encode ->
// ts -> engine -> solver -> sat/smt (run by package driver, wrapped by
// the command cmd/bmc), not in it: it interprets the ir program directly,
// as the oracle of the differential tests and as the replayer that
// confirms each witness a symbolic engine reports. Of bmc's packages it
// imports lang, ir and result (it reports a result.Result like every
// engine); only package driver and tests import it.
package explicit
