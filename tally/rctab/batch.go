package rctab

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Outcome is what one run decided, for a summary of many contests.
type Outcome struct {
	Contest string   // the config's contestName
	Winners []string // in order of election
	Ballots uint64   // ballots counted
	Rounds  int      // rounds of the count (of its last pass for multiPassIrv)
}

// WithOutcome has a run fill *o with what it decided.
func WithOutcome(o *Outcome) RunOption { return func(r *runOptions) { r.outcome = o } }

// ContestRun is one contest of RunConfigs: its config, the folder its
// reports went to, and what it decided or why it failed.
type ContestRun struct {
	Config  string
	Output  string
	Outcome Outcome
	Err     error
}

// RunConfigs runs many contest configs, as a state does after an election
// with hundreds of ranked contests: each into its own folder of outRoot
// (named after the config file, without _config.json), each exactly as
// RunConfig alone would. A contest that fails does not stop the others; its
// folder is not written and its ContestRun holds the error. progress, when
// set, is told before each contest starts. outRoot must not exist or be
// empty.
func RunConfigs(ctx context.Context, configs []string, outRoot string, progress func(done, total int, config string), opts ...RunOption) ([]ContestRun, error) {
	if len(configs) == 0 {
		return nil, errorf("no contest configs to run")
	}
	if err := checkOutDir(outRoot); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(outRoot, 0o755); err != nil {
		return nil, errorf("create %s: %w", outRoot, err)
	}
	runs := make([]ContestRun, len(configs))
	used := map[string]bool{}
	for i, cfg := range configs {
		if err := ctx.Err(); err != nil {
			return runs[:i], err
		}
		if progress != nil {
			progress(i, len(configs), cfg)
		}
		name := outputName(cfg, used)
		r := ContestRun{Config: cfg, Output: filepath.Join(outRoot, name)}
		r.Err = RunConfig(ctx, cfg, r.Output, append(opts[:len(opts):len(opts)], WithOutcome(&r.Outcome))...)
		runs[i] = r
	}
	return runs, nil
}

// outputName is the folder a config's reports go to: its file name without
// "_config.json" (or ".json"), made unique among used.
func outputName(config string, used map[string]bool) string {
	base := filepath.Base(config)
	for _, sfx := range []string{"_config.json", ".json"} {
		if b, ok := strings.CutSuffix(base, sfx); ok && b != "" {
			base = b
			break
		}
	}
	name := base
	for n := 2; used[name]; n++ {
		name = base + "_" + strconv.Itoa(n)
	}
	used[name] = true
	return name
}

// FindConfigs lists the RCTab contest configs in a folder and its
// subfolders, by path: the .json files whose opening names a
// tabulatorVersion and cvrFileSources (cast vote records in CDF JSON and
// expected reports are not configs).
func FindConfigs(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.EqualFold(filepath.Ext(path), ".json") || !d.Type().IsRegular() {
			return nil
		}
		if isConfig(path) {
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		return nil, errorf("look for configs in %s: %w", dir, err)
	}
	sort.Strings(out)
	return out, nil
}

// isConfig peeks at a JSON file's opening for a config's top-level fields.
func isConfig(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, head)
	s := string(head[:n])
	return strings.Contains(s, `"tabulatorVersion"`) && strings.Contains(s, `"cvrFileSources"`)
}
