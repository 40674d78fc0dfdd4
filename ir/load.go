package ir

import "bmc/lang"

// SourceError is a problem in the program text: parse or check errors,
// each as file:line:col: message.
type SourceError struct{ List lang.ErrorList }

func (e *SourceError) Error() string { return e.List.Error() }

// Load parses, checks and lowers a program. Errors in the text come back
// as *SourceError; other errors concern opts. Warnings are returned even
// when the program is accepted.
func Load(filename string, src []byte, opts Options) (*Program, lang.ErrorList, error) {
	f, err := lang.ParseFile(filename, src)
	if err != nil {
		return nil, nil, &SourceError{err.(lang.ErrorList)}
	}
	info, err := lang.Check(f)
	if err != nil {
		return nil, info.Warnings, &SourceError{err.(lang.ErrorList)}
	}
	p, err := Build(info, opts)
	return p, info.Warnings, err
}
