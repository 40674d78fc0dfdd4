// Package picture draws a counterexample (result.Trace) as a picture: an
// SVG image, or a self-contained HTML page that holds the same SVG and
// shows the program's source lines when the pointer rests on a step.
//
// A text trace interleaves the threads line by line, so who waits for
// whom, who holds which lock and where the loop of a livelock closes must
// be read off column by column. The picture gives each thread a lane of
// its own (time runs downward), draws every context switch as an arrow
// from the lane that stops to the lane that runs, every lock hold as a
// bar beside the holder's lane, the shared variables each step changes in
// a column on the right, and boxes the loop of a livelock. Runs of
// thread-local steps fold into one mark, so that long traces stay short.
//
// The output is plain SVG, and HTML with CSS (the hover panel uses
// :has()); no script, no external resource, so any browser opens it.
// Each mark carries data- attributes naming the steps it draws, for
// tests that read a picture back. The layout estimates text widths from
// a monospaced font instead of measuring them, so it depends on the
// trace alone (and the source lines and the names of the shared
// variables given in Options): the same trace gives the same bytes.
//
// Of bmc's packages it imports only result.
package picture
