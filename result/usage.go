package result

// UsageError is a request that cannot be carried out as asked.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }
