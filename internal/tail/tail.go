// Package tail keeps the end of what a process writes, for the report
// of one that failed: the driver's candidates' processes, and the checks
// of bmc batch.
package tail

import (
	"bytes"
	"sync"
)

// Size is how much of the end a Buffer keeps.
const Size = 4096

// Buffer is an io.Writer that keeps the last Size bytes written to it;
// its zero value is ready, and it is safe for concurrent use.
type Buffer struct {
	mu sync.Mutex
	b  []byte
}

func (t *Buffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > Size {
		t.b = t.b[len(t.b)-Size:]
	}
	return len(p), nil
}

// String is the bytes kept, without the white space around them.
func (t *Buffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.b))
}
