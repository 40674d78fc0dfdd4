// Package moped lets Moped 1.0.15, the BDD-based pushdown model checker
// of Schwoon, Esparza and others, decide bmc's sequential programs (the
// eager and lazy sequentializations), so that users can compare our
// verdicts with a BDD tool's: Lower turns a program into one whose
// violations are the reachability of one label and which has only
// constructs Moped reads with our meaning, Format prints it (in the
// syntax decompile.Moped) and checks the text with CheckText, our own
// recogniser of Moped's grammar, and Run asks Moped whether the label is
// reachable. What Moped reads, and what it reads differently, is listed
// in shared/peers/MOPED.md.
package moped
