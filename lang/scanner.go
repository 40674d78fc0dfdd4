package lang

import (
	"fmt"
	"sort"
)

// Error is one diagnostic with its position.
type Error struct {
	File string
	Pos  Pos
	Msg  string
}

func (e *Error) Error() string {
	if e.File == "" {
		return fmt.Sprintf("%s: %s", e.Pos, e.Msg)
	}
	return fmt.Sprintf("%s:%s: %s", e.File, e.Pos, e.Msg)
}

// ErrorList collects diagnostics; it is an error when non-empty.
type ErrorList []*Error

// Add appends a diagnostic.
func (l *ErrorList) Add(file string, pos Pos, format string, args ...any) {
	*l = append(*l, &Error{File: file, Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// Sort orders the list by position and drops exact duplicates.
func (l *ErrorList) Sort() {
	s := *l
	sort.SliceStable(s, func(i, j int) bool {
		if s[i].Pos.Line != s[j].Pos.Line {
			return s[i].Pos.Line < s[j].Pos.Line
		}
		return s[i].Pos.Col < s[j].Pos.Col
	})
	out := s[:0]
	for i, e := range s {
		if i > 0 && *e == *s[i-1] {
			continue
		}
		out = append(out, e)
	}
	*l = out
}

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Err returns nil for an empty list and the list otherwise.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// maxErrors bounds the diagnostics kept for one file, so garbage input
// produces a readable report instead of one error per byte.
const maxErrors = 25

// Scanner turns source bytes into tokens. Comments and white space are
// skipped; \r\n line endings are accepted.
type Scanner struct {
	file   string
	src    []byte
	off    int
	line   int
	col    int
	errors *ErrorList
}

// Init prepares s to scan src; errors are appended to errs.
func (s *Scanner) Init(file string, src []byte, errs *ErrorList) {
	*s = Scanner{file: file, src: src, line: 1, col: 1, errors: errs}
	if len(src) >= 3 && src[0] == 0xef && src[1] == 0xbb && src[2] == 0xbf {
		s.off = 3 // UTF-8 byte order mark
	}
}

func (s *Scanner) error(pos Pos, format string, args ...any) {
	if len(*s.errors) < maxErrors {
		s.errors.Add(s.file, pos, format, args...)
	}
}

func (s *Scanner) peek(k int) byte {
	if s.off+k < len(s.src) {
		return s.src[s.off+k]
	}
	return 0
}

func (s *Scanner) advance() {
	if s.off >= len(s.src) {
		return
	}
	if s.src[s.off] == '\n' {
		s.line++
		s.col = 1
	} else {
		s.col++
	}
	s.off++
}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

// isIdentPart lists the characters identifiers may continue with; the
// extra ones ($ @ . #) come from SLAM, SatAbs and Boom output.
func isIdentPart(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '$' || c == '@' || c == '.' || c == '#'
}

// skipSpace skips white space and comments.
func (s *Scanner) skipSpace() {
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			s.advance()
		case c == '/' && s.peek(1) == '/':
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				s.advance()
			}
		case c == '/' && s.peek(1) == '*':
			pos := Pos{s.line, s.col}
			s.advance()
			s.advance()
			for {
				if s.off >= len(s.src) {
					s.error(pos, "comment not terminated")
					return
				}
				if s.src[s.off] == '*' && s.peek(1) == '/' {
					s.advance()
					s.advance()
					break
				}
				s.advance()
			}
		default:
			return
		}
	}
}

// Scan returns the next token, its position and its literal text (the
// name for identifiers, the digits for numbers).
func (s *Scanner) Scan() (tok Token, pos Pos, lit string) {
	s.skipSpace()
	pos = Pos{s.line, s.col}
	if s.off >= len(s.src) {
		return EOF, pos, ""
	}
	c := s.src[s.off]
	switch {
	case isLetter(c):
		start := s.off
		for s.off < len(s.src) && isIdentPart(s.src[s.off]) {
			s.advance()
		}
		lit = string(s.src[start:s.off])
		return Lookup(lit), pos, lit
	case isDigit(c):
		start := s.off
		for s.off < len(s.src) && isDigit(s.src[s.off]) {
			s.advance()
		}
		return NUMBER, pos, string(s.src[start:s.off])
	case c == '{':
		// Braced identifier, as in {a.b}: any characters up to '}'.
		s.advance()
		start := s.off
		for s.off < len(s.src) && s.src[s.off] != '}' && s.src[s.off] != '\n' {
			s.advance()
		}
		if s.off >= len(s.src) || s.src[s.off] != '}' {
			s.error(pos, "braced identifier not terminated")
			return ILLEGAL, pos, ""
		}
		lit = string(s.src[start:s.off])
		s.advance()
		if lit == "" {
			s.error(pos, "empty braced identifier")
			return ILLEGAL, pos, ""
		}
		return IDENT, pos, lit
	}
	s.advance()
	switch c {
	case ':':
		if s.peek(0) == '=' {
			s.advance()
			return ASSIGN, pos, ""
		}
		return COLON, pos, ""
	case ',':
		return COMMA, pos, ""
	case ';':
		return SEMI, pos, ""
	case '(':
		return LPAREN, pos, ""
	case ')':
		return RPAREN, pos, ""
	case '[':
		return LBRACK, pos, ""
	case ']':
		return RBRACK, pos, ""
	case '<':
		return LT, pos, ""
	case '>':
		return GT, pos, ""
	case '~':
		return NOT, pos, ""
	case '!':
		if s.peek(0) == '=' {
			s.advance()
			return NEQ, pos, ""
		}
		return NOT, pos, ""
	case '&':
		if s.peek(0) == '&' {
			s.advance()
		}
		return AND, pos, ""
	case '|':
		if s.peek(0) == '|' {
			s.advance()
		}
		return OR, pos, ""
	case '^':
		return XOR, pos, ""
	case '=':
		switch s.peek(0) {
		case '>':
			s.advance()
			return IMPLIES, pos, ""
		case '=':
			s.advance()
		}
		return EQ, pos, ""
	case '*', '?':
		return STAR, pos, ""
	case '\'':
		return PRIME, pos, ""
	}
	if c < 0x20 || c >= 0x7f {
		s.error(pos, "illegal character %#02x", c)
	} else {
		s.error(pos, "illegal character %q", c)
	}
	return ILLEGAL, pos, string(c)
}
