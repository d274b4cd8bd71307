package app

// CheckRun checks that evs continue a log whose event at next-1 has hash
// prev: whole envelopes, sequence numbers next, next+1, ... with no gap,
// each event chained to the one before with a hash that matches its content,
// and each sealed part matching its commitment. The error names the first
// bad sequence number.
func CheckRun(prev string, next uint64, evs []*Event) error {
	for i, ev := range evs {
		want := next + uint64(i)
		switch {
		case ev.Seq != want:
			return Errorf(CodeInvalid, "event %d is missing: event %d is in its place (a gap or a repeat in the log)", want, ev.Seq)
		case ev.PrevHash != prev:
			return Errorf(CodeInvalid, "event %d: the hash chain is broken (prev_hash %.12s…, the event before has %.12s…)", want, ev.PrevHash, prev)
		}
		if err := ev.Check(); err != nil {
			return Errorf(CodeInvalid, "event %d: %s", want, ErrorMessage(err))
		}
		if h := ev.ComputeHash(prev); h != ev.Hash {
			return Errorf(CodeInvalid, "event %d: its hash does not match its content, so it was changed after it was written (stored %.12s…, computed %.12s…)", want, ev.Hash, h)
		}
		if _, err := ev.OpenSealed(); err != nil {
			return Errorf(CodeInvalid, "event %d: %s", want, ErrorMessage(err))
		}
		prev = ev.Hash
	}
	return nil
}
