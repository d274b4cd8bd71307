package relaunch

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// The tests start this test binary as the program to restart: helperEnv
// says how it restarts itself, markerName is the variable it restarts with.
const (
	helperEnv  = "VOTEDESK_RELAUNCH_HELPER"
	markerName = "VOTEDESK_RELAUNCH_MARKER"
)

// TestMain is, in a helper process, the program restarted: the first
// process prints its id and restarts itself as helperEnv says; the second,
// started with the marker, prints its id, its arguments and the marker's
// values.
func TestMain(m *testing.M) {
	how := os.Getenv(helperEnv)
	if how == "" {
		os.Exit(m.Run())
	}
	var values []string
	for _, e := range os.Environ() {
		if v, ok := strings.CutPrefix(e, markerName+"="); ok {
			values = append(values, v)
		}
	}
	if len(values) > 0 {
		out, _ := json.Marshal(restarted{PID: os.Getpid(), Args: os.Args[1:], Marker: values})
		fmt.Printf("restarted %s\n", out)
		os.Exit(0)
	}
	fmt.Printf("first %d\n", os.Getpid())
	var err error
	switch how {
	case "Restart":
		err = Restart(markerName + "=second")
	case "spawn":
		err = again(spawn, markerName+"=second")
	}
	if err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	os.Exit(0)
}

// restarted is what the restarted helper reports.
type restarted struct {
	PID    int
	Args   []string
	Marker []string
}

// TestRestart runs a helper that restarts itself, and reads what the
// restarted one reports: the same arguments and the marker. On
// Unix Restart keeps the process (exec); spawn, Windows' way, starts
// another and the first exits. Reading the helper's output to its end waits
// for both processes, which share it.
func TestRestart(t *testing.T) {
	for _, how := range []string{"Restart", "spawn"} {
		t.Run(how, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "one", "two words", "")
			cmd.Env = append(os.Environ(), helperEnv+"="+how)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("helper: %v\n%s", err, out)
			}
			var first int
			var second restarted
			for line := range strings.Lines(string(out)) {
				if v, ok := strings.CutPrefix(line, "first "); ok {
					fmt.Sscan(v, &first)
				} else if v, ok := strings.CutPrefix(line, "restarted "); ok {
					if err := json.Unmarshal([]byte(v), &second); err != nil {
						t.Fatal(err)
					}
				}
			}
			if first == 0 || second.PID == 0 {
				t.Fatalf("helper said %q", out)
			}
			if !slices.Equal(second.Args, []string{"one", "two words", ""}) || !slices.Equal(second.Marker, []string{"second"}) {
				t.Errorf("restarted with arguments %q and marker %q", second.Args, second.Marker)
			}
			keeps := how == "Restart" && runtime.GOOS != "windows"
			if keeps != (second.PID == first) {
				t.Errorf("%s: first process %d, restarted %d", how, first, second.PID)
			}
		})
	}
}

func TestWithVar(t *testing.T) {
	got := withVar([]string{"A=1", "VOTEDESK_NOTICE=old", "B=2=3", "VOTEDESK_NOTICE=older"}, "VOTEDESK_NOTICE=new")
	if want := []string{"A=1", "B=2=3", "VOTEDESK_NOTICE=new"}; !slices.Equal(got, want) {
		t.Errorf("withVar = %q, want %q", got, want)
	}
}
