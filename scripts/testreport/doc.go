// Command testreport reads the JSON events of go test -json on standard
// input and prints what go test prints without it: a line per package
// (ok, FAIL, no test files), and the whole output of every test that
// failed. It adds, with -peers FILE, the comparisons with third-party
// tools (internal/peer): how many cases each peer decided and which
// peers were missing, accumulated in FILE over several runs; with
// -peers FILE -print it prints that line alone (the end of make test):
//
//	peers: ABC 13 cases, z3 9 cases; Moped not installed: 3 comparisons skipped
//
// It exits with status 1 when a test, a package or a build failed.
//
// Usage:
//
//	go test -json ./... | go run ./scripts/testreport -peers FILE
//	go run ./scripts/testreport -peers FILE -print
package main
