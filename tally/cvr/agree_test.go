package cvr

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCountyFormatsAgree is a property test of the readers of the
// formats counties publish: random ballots (candidates, ranks left blank,
// overvotes, undeclared write-ins, a candidate ranked twice), written as an
// ES&S sheet saved as CSV (with weighted rows), as a WinEDS ballot image
// with its master lookup and as VoteDesk's CSV, read back alone (format and
// layout told by each file), give the same ballots in the same order.
func TestCountyFormatsAgree(t *testing.T) {
	for seed := range uint64(150) {
		rng := rand.New(rand.NewPCG(seed, 2026))
		nc := 2 + rng.IntN(5)
		ranks := 1 + rng.IntN(5)
		var cands []string
		for c := range nc {
			cands = append(cands, fmt.Sprintf("Cand %c %d", 'A'+c, rng.IntN(100)))
		}
		dir := t.TempDir()
		var ess, image, votedesk strings.Builder
		ess.WriteString("Precinct")
		votedesk.WriteString("ballot_id")
		for r := 1; r <= ranks; r++ {
			fmt.Fprintf(&ess, ",Choice %d of %d", r, ranks)
			fmt.Fprintf(&votedesk, ",rank_%d", r)
		}
		ess.WriteString(",Count\n")
		votedesk.WriteString("\n")
		voter := 0
		for range 1 + rng.IntN(30) {
			precinct := 1 + rng.IntN(3)
			weight := 1 + rng.IntN(3)
			cells := make([]string, ranks) // ES&S cells
			lines := make([]string, ranks) // ballot image: candidate, over, under
			vd := make([]string, ranks)    // VoteDesk cells
			for r := range ranks {
				switch k := rng.IntN(10); {
				case k < 2: // left blank
					cells[r], lines[r], vd[r] = "undervote", "000000001", ""
				case k == 2:
					cells[r], lines[r], vd[r] = "overvote", "000000010", VoteDeskOvervote
				case k == 3:
					cells[r], lines[r], vd[r] = "UWI", fmt.Sprintf("%07d00", 90), UndeclaredWriteIn
				default: // a candidate, maybe one ranked before
					c := rng.IntN(nc)
					cells[r], lines[r], vd[r] = cands[c], fmt.Sprintf("%07d00", 11+c), cands[c]
				}
			}
			fmt.Fprintf(&ess, "P%d,%s,%d\n", precinct, strings.Join(cells, ","), weight)
			for range weight {
				voter++
				for r := range ranks {
					fmt.Fprintf(&image, "0000005%09d0000001002%07d%03d%s\n", voter, precinct, r+1, lines[r])
				}
				fmt.Fprintf(&votedesk, "v%d,%s\n", voter, strings.Join(vd, ","))
			}
		}
		var master strings.Builder
		for c, name := range cands {
			fmt.Fprintf(&master, "%-10s%07d%-50s%07d%07d00\n", "Candidate", 11+c, name, c+1, 5)
		}
		fmt.Fprintf(&master, "%-10s%07d%-50s%07d%07d10\n", "Candidate", 90, "Write-In", nc+1, 5)
		fmt.Fprintf(&master, "%-10s%07d%-50s%07d%07d00\n", "Contest", 5, "Mayor", 1, 0)
		for name, content := range map[string]string{"county.csv": ess.String(), "ballot_image.txt": image.String(), "master_lookup.txt": master.String(), "votedesk.csv": votedesk.String()} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		var got [3][]string
		for i, name := range []string{"county.csv", "ballot_image.txt", "votedesk.csv"} {
			f, err := ReadFile(context.Background(), Source{FilePath: filepath.Join(dir, name)}, Options{})
			if err != nil {
				t.Fatalf("seed %d, %s: %v", seed, name, err)
			}
			got[i] = renderAll(&f.Ballots, f.Candidates)
		}
		for i, name := range []string{"the ballot image", "VoteDesk's CSV"} {
			if strings.Join(got[i+1], "\n") != strings.Join(got[0], "\n") {
				t.Fatalf("seed %d: %s reads\n%q\nthe ES&S CSV\n%q", seed, name, got[i+1], got[0])
			}
		}
	}
}
