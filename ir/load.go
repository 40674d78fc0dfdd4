package ir

import (
	"context"

	"bmc/lang"
)

// SourceError is a problem in the program text: parse or check errors,
// each as file:line:col: message.
type SourceError struct{ List lang.ErrorList }

func (e *SourceError) Error() string { return e.List.Error() }

// Load parses, checks and lowers a program. Errors in the text come back
// as *SourceError; when ctx ends first, the error is its cause; other
// errors concern opts. Warnings are returned even when the program is
// accepted.
func Load(ctx context.Context, filename string, src []byte, opts Options) (*Program, lang.ErrorList, error) {
	f, err := lang.ParseFile(ctx, filename, src)
	if list, ok := err.(lang.ErrorList); ok {
		return nil, nil, &SourceError{list}
	} else if err != nil {
		return nil, nil, err
	}
	info, err := lang.Check(ctx, f)
	if list, ok := err.(lang.ErrorList); ok {
		return nil, info.Warnings, &SourceError{list}
	} else if err != nil {
		return nil, nil, err
	}
	p, err := Build(ctx, info, opts)
	return p, info.Warnings, err
}
