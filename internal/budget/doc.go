// Package budget is what a run may spend, carried by its context: its
// cores, which the candidates of a plan take in turn and an engine's
// own race borrows while no candidate waits, and its memory limit, which
// a method reads to refuse up front what cannot fit. Sizes are read and
// written here too (512M, 4G), as the command line gives them.
package budget
