package app_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"votedesk/app"
)

// TestPollBookRuleAsAScan holds the poll book's name index to the rule it
// replaced, on random histories: a batch of voters is refused exactly when
// one of its names is already listed as the domain compares names (NameKey,
// read off the poll book as listed, voter by voter), naming the first such
// voter in the poll book's order; a kiosk finds a voter typed in other
// letters exactly when one entry matches. Names are drawn from a few, in
// other letters and spacing, so clashes are frequent; voters are removed,
// elections renamed, deleted and made again under the same name. Every
// step ends with verify (newEnv's clean-up too), which checks the index
// against the poll book and a rebuild from the log.
func TestPollBookRuleAsAScan(t *testing.T) {
	for seed := range uint64(6) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 99))
			e := newEnv(t)
			bases := []string{"Ann Lee", "Bob Roe", "Zoë Ortiz", "Cy Day", "Dee Fox", "al vo"}
			variant := func() string {
				b := []rune(bases[rng.IntN(len(bases))])
				for i, r := range b {
					if rng.IntN(3) == 0 {
						b[i] = []rune(strings.ToUpper(string(r)))[0]
					} else if rng.IntN(3) == 0 {
						b[i] = []rune(strings.ToLower(string(r)))[0]
					}
				}
				return string(b)
			}
			name := "Poll"
			e.must(e.svc.CreateElection(e.ctx, "user", name, "", false))
			listed := func() []string {
				vs, err := e.svc.Voters(e.ctx, "user", name)
				e.must(err)
				out := make([]string, len(vs))
				for i, v := range vs {
					out[i] = v.Name
				}
				return out
			}
			for step := range 60 {
				switch op := rng.IntN(10); {
				case op < 6: // a batch of one to three voters
					var batch []app.VoterEntry
					keys := map[string]bool{}
					dup := false
					for range 1 + rng.IntN(3) {
						n := variant()
						dup = dup || keys[app.NameKey(n)]
						keys[app.NameKey(n)] = true
						batch = append(batch, app.VoterEntry{Name: n})
					}
					// The rule as it was: each voter listed, in order,
					// against the batch's keys.
					clash := ""
					for _, v := range listed() {
						if keys[app.NameKey(v)] {
							clash = v
							break
						}
					}
					exact := slices.ContainsFunc(batch, func(v app.VoterEntry) bool { return slices.Contains(listed(), v.Name) })
					err := e.svc.AddVoters(e.ctx, "user", name, batch...)
					switch {
					case dup || exact: // refused before the names are compared
						if !app.IsCode(err, app.CodeInvalid) && !app.IsCode(err, app.CodeConflict) {
							t.Fatalf("step %d: a batch naming one voter twice or one listed as written, %v: %v", step, batch, err)
						}
					case clash != "":
						if !app.IsCode(err, app.CodeConflict) || !strings.HasSuffix(app.ErrorMessage(err), fmt.Sprintf("(as %q)", clash)) {
							t.Fatalf("step %d: adding %v to %q: %v, want a refusal naming %q", step, batch, listed(), err, clash)
						}
					default:
						if err != nil {
							t.Fatalf("step %d: adding %v to %q: %v", step, batch, listed(), err)
						}
					}
				case op < 8: // a voter removed
					if l := listed(); len(l) > 0 {
						e.must(e.svc.RemoveVoters(e.ctx, "user", name, l[rng.IntN(len(l))]))
					}
				case op < 9: // renamed
					next := fmt.Sprintf("Poll %d", step)
					e.must(e.svc.RenameElection(e.ctx, "user", name, next))
					name = next
				default: // deleted, and made again under its name
					e.must(e.svc.DeleteElection(e.ctx, "user", name))
					e.must(e.svc.CreateElection(e.ctx, "user", name, "", false))
				}
				if r, err := e.store.Verify(e.ctx); err != nil || !r.OK() {
					t.Fatalf("step %d: %v %v", step, r.Problems, err)
				}
			}
			// A kiosk: each name typed in other letters finds the one
			// entry it matches, or says there are several, or none.
			e.must(e.svc.AddCandidates(e.ctx, "user", name, "Yes", "No"))
			e.must(e.svc.LaunchElection(e.ctx, "user", name))
			l := listed()
			for _, b := range bases {
				typed := strings.ToUpper(b)
				var match []string
				for _, v := range l {
					if app.NameKey(v) == app.NameKey(typed) {
						match = append(match, v)
					}
				}
				in, err := e.svc.CheckInVoter(e.ctx, "user", name, typed)
				switch {
				case slices.Contains(l, typed):
					if err != nil || in.Voter != typed {
						t.Errorf("check-in of %q, listed as typed: %+v %v", typed, in, err)
					}
				case len(match) == 1:
					if err != nil || in.Voter != match[0] {
						t.Errorf("check-in of %q: %+v %v, want %q", typed, in, err, match[0])
					}
				case len(match) > 1:
					if !app.IsCode(err, app.CodeConflict) {
						t.Errorf("check-in of %q, which matches %q: %v", typed, match, err)
					}
				default:
					if !app.IsCode(err, app.CodeNotFound) {
						t.Errorf("check-in of %q, in no entry of %q: %v", typed, l, err)
					}
				}
			}
		})
	}
}
