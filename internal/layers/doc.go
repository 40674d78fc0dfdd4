// Package layers holds the test of the import layers: the packages of
// bmc in the order of the pipeline they form, each importing only
// packages of lower layers, and the oracle (explicit) imported by the
// methods and the driver only. A new package takes its place in the
// test's table.
package layers
