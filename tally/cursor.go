package tally

// A cursor is where a ballot stands in a ranked-choice count, in one word
// per ballot record.
//
// Most rules decide each rank group of a ballot without looking at which
// candidates still continue: a lone candidate is a choice, an overvote
// exhausts the ballot or is skipped, a skipped or repeated rank exhausts
// it. Under them a ballot is, to the count, a list of choices and what
// happens after the last one, and placing it again after an elimination
// means taking the first choice in that list that still continues. Round 1
// reads each ballot's marks once and keeps the first choices in its cursor;
// later rounds, which move the ballots of eliminated candidates (scattered
// over the whole set), read only the cursor: one fetch from memory instead
// of three (where the ballot's marks are, its marks, where it stood).
//
// Layout of a compiled cursor:
//
//	bits 0-23   up to six choices, four bits each, the current one first
//	bits 24-26  how many of them are left
//	bits 27-29  what follows them: a Status, or Active when the ballot has
//	            more choices than six (read from its marks when reached)
//
// A cursor with bit 31 set holds instead, in its low 16 bits, the offset of
// the rank group the ballot counts from, and the ballot is placed from its
// marks: when its rules look at who continues (an overvote exhausts a
// ballot only with two continuing candidates), when the contest has more
// than 16 candidates, or once its first six choices are gone.
type cursor uint32

const (
	cursorChoices = 6
	fromMarks     = cursor(1) << 31
)

// first returns the offset in the set's marks of ballot b's first mark.
func (k *counter) first(b int) uint32 {
	if b == 0 {
		return 0
	}
	return k.ballots.Ends[b-1]
}

// marksOf returns ballot b's marks.
func (k *counter) marksOf(b int) []Mark {
	return k.ballots.Marks[k.first(b):k.ballots.Ends[b]]
}

// everyone continues: what compile places against, so that place returns
// each choice in turn.
var everyone = func() []bool {
	all := make([]bool, 16)
	for i := range all {
		all[i] = true
	}
	return all
}()

// compile reads a ballot's marks from the rank group at offset from, with
// place and every candidate continuing: each lone candidate it returns is
// a choice, and the rank group after it is where the next is looked for;
// place returns a candidate only from a lone mark when the rules decide
// overvotes alone. It returns the cursor of the first six choices and the
// offset after the sixth (where the ballot is read on from its marks).
func (k *counter) compile(marks []Mark, from int) (cursor, int) {
	if from == 0 {
		if w, at, ok := compilePlain(marks); ok {
			return w, at
		}
	}
	var w cursor
	at := from
	for n := 0; n < cursorChoices; n++ {
		c, st, i := k.place(marks, at, everyone)
		if st != Active {
			return w | cursor(n)<<24 | cursor(st)<<27, at
		}
		w |= cursor(c) << (4 * n)
		at = i + 1
	}
	return w | cursorChoices<<24 | cursor(Active)<<27, at
}

// compilePlain is compile for the usual ballot, read without place: its
// first marks rank one candidate each at ranks 1, 2, 3..., none repeated.
// Every rule reads such marks alike (no rank skipped, no overvote, no
// candidate marked twice), as choices in order. ok is false for any other
// ballot, which compile reads with place.
func compilePlain(marks []Mark) (w cursor, at int, ok bool) {
	n := min(len(marks), cursorChoices)
	seen := uint16(0)
	for i, m := range marks[:n] {
		if int(m.Rank) != i+1 || m.Candidate >= 16 || seen>>m.Candidate&1 != 0 {
			return 0, 0, false
		}
		seen |= 1 << m.Candidate
		w |= cursor(m.Candidate) << (4 * i)
	}
	then := ExhaustedChoices
	if len(marks) > n {
		if int(marks[n].Rank) == n {
			return 0, 0, false // the last rank read is an overvote
		}
		then = Active
	}
	return w | cursor(n)<<24 | cursor(then)<<27, n, true
}

// place1 places ballot b in round 1, checking it first when check is set
// (the count checks each ballot as it first reads it, while its marks are
// in the cache): where it counts, or why it is inactive.
func (k *counter) place1(b int, check bool) (int, Status, error) {
	if check {
		if k.compiles && !k.opts.noCursors {
			// The usual ballot is checked and compiled in one reading.
			if w, ok := k.opts.check.compilePlain(b); ok {
				k.cur[b] = w
				c, st := k.next(b)
				return c, st, nil
			}
		}
		if err := k.opts.check.one(b); err != nil {
			return -1, 0, err
		}
	}
	if k.ballots.Ends[b] == k.first(b) {
		return -1, NoRankings, nil
	}
	c, st := k.start(b)
	return c, st, nil
}

// start reads ballot b for round 1: its cursor, and where it counts.
func (k *counter) start(b int) (int, Status) {
	if !k.compiles || k.opts.noCursors {
		k.cur[b] = fromMarks
		return k.next(b)
	}
	w, _ := k.compile(k.marksOf(b), 0)
	k.cur[b] = w
	return k.next(b)
}

// next places ballot b: the candidate it counts for now, or why it is
// inactive, moving its cursor on.
func (k *counter) next(b int) (int, Status) {
	w := k.cur[b]
	if w&fromMarks == 0 {
		for n := w >> 24 & 7; n > 0; n-- {
			if c := int(w & 0xF); k.cont[c] {
				k.cur[b] = w
				return c, Active
			}
			w = w&^0x7FFFFFF | (w&0xFFFFFF)>>4 | (n-1)<<24
		}
		if st := Status(w >> 27 & 7); st != Active {
			k.cur[b] = w
			return -1, st
		}
		// Past the sixth choice: on from the marks.
		_, at := k.compile(k.marksOf(b), 0)
		w = fromMarks | cursor(at)
	}
	c, st, at := k.place(k.marksOf(b), int(w&0xFFFF), k.cont)
	k.cur[b] = fromMarks | cursor(at)
	return c, st
}
