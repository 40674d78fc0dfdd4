package lang

import "fmt"

// Pos is a position in a source file; Line and Col count from 1.
type Pos struct {
	Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// IsValid reports whether p is a real position.
func (p Pos) IsValid() bool { return p.Line > 0 }

// Token is a lexical token kind.
type Token int

const (
	ILLEGAL Token = iota
	EOF
	IDENT  // x, {a.b}, thread0, c$$main
	NUMBER // 0, 1, 12 (labels, bool<n>)

	// Operators and punctuation.
	ASSIGN  // :=
	COMMA   // ,
	SEMI    // ;
	COLON   // :
	LPAREN  // (
	RPAREN  // )
	LBRACK  // [
	RBRACK  // ]
	LT      // <
	GT      // >
	NOT     // ! or ~
	AND     // & or &&
	OR      // | or ||
	XOR     // ^
	EQ      // = or ==
	NEQ     // !=
	IMPLIES // =>
	STAR    // * or ?
	PRIME   // '
	keywordBeg
	// Keywords.
	DECL
	VOID
	BOOL
	BEGIN
	END
	IF
	THEN
	ELSE
	ELSIF
	FI
	WHILE
	DO
	OD
	GOTO
	ASSUME
	ASSERT
	SKIP
	RETURN
	ATOMIC_BEGIN
	ATOMIC_END
	DEAD
	CONSTRAIN
	ENFORCE
	SCHOOSE
	START_THREAD
	END_THREAD
	TRUE  // T
	FALSE // F
	keywordEnd
)

var tokenNames = [...]string{
	ILLEGAL: "illegal token", EOF: "end of file", IDENT: "identifier", NUMBER: "number",
	ASSIGN: "':='", COMMA: "','", SEMI: "';'", COLON: "':'", LPAREN: "'('", RPAREN: "')'",
	LBRACK: "'['", RBRACK: "']'", LT: "'<'", GT: "'>'", NOT: "'!'", AND: "'&'", OR: "'|'",
	XOR: "'^'", EQ: "'='", NEQ: "'!='", IMPLIES: "'=>'", STAR: "'*'", PRIME: "'''",
	DECL: "decl", VOID: "void", BOOL: "bool", BEGIN: "begin", END: "end", IF: "if",
	THEN: "then", ELSE: "else", ELSIF: "elsif", FI: "fi", WHILE: "while", DO: "do", OD: "od",
	GOTO: "goto", ASSUME: "assume", ASSERT: "assert", SKIP: "skip", RETURN: "return",
	ATOMIC_BEGIN: "atomic_begin", ATOMIC_END: "atomic_end", DEAD: "dead",
	CONSTRAIN: "constrain", ENFORCE: "enforce", SCHOOSE: "schoose",
	START_THREAD: "start_thread", END_THREAD: "end_thread", TRUE: "T", FALSE: "F",
}

func (t Token) String() string {
	if int(t) < len(tokenNames) && tokenNames[t] != "" {
		return tokenNames[t]
	}
	return fmt.Sprintf("token(%d)", int(t))
}

// IsKeyword reports whether t is a reserved word.
func (t Token) IsKeyword() bool { return keywordBeg < t && t < keywordEnd }

var keywords map[string]Token

func init() {
	keywords = make(map[string]Token)
	for t := keywordBeg + 1; t < keywordEnd; t++ {
		keywords[tokenNames[t]] = t
	}
}

// Lookup maps an identifier to its keyword token, or IDENT.
func Lookup(name string) Token {
	if t, ok := keywords[name]; ok {
		return t
	}
	return IDENT
}
