package rctab

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Config is an RCTab contest config file, as read. Numeric settings are
// kept as the strings RCTab keeps them as; Contest and Rules interpret them.
type Config struct {
	// Path is the file the config was read from; relative CVR paths
	// resolve against its directory.
	Path             string         `json:"-"`
	TabulatorVersion string         `json:"tabulatorVersion"`
	OutputSettings   OutputSettings `json:"outputSettings"`
	RawSources       []rawSource    `json:"cvrFileSources"`
	// CVRFileSources are the sources with their indexes parsed.
	CVRFileSources []Source    `json:"-"`
	Candidates     []Candidate `json:"candidates"`
	// RawRules holds the "rules" section field by field.
	RawRules map[string]json.RawMessage `json:"rules"`
}

// OutputSettings is the config's "outputSettings" section.
type OutputSettings struct {
	ContestName         string `json:"contestName"`
	OutputDirectory     string `json:"outputDirectory"`
	ContestDate         string `json:"contestDate"`
	ContestJurisdiction string `json:"contestJurisdiction"`
	ContestOffice       string `json:"contestOffice"`
	TabulateByBatch     bool   `json:"tabulateByBatch"`
	TabulateByPrecinct  bool   `json:"tabulateByPrecinct"`
	GenerateCdfJSON     bool   `json:"generateCdfJson"`
}

// Source is one entry of cvrFileSources: a cast vote record file and how to
// read it. Column and row indexes count from 1; 0 means not set.
type Source struct {
	// Index is the entry's position in cvrFileSources, from 0.
	Index                         int
	FilePath                      string
	Provider                      string
	ContestID                     string
	FirstVoteColumnIndex          int
	FirstVoteRowIndex             int
	IDColumnIndex                 int
	BatchColumnIndex              int
	PrecinctColumnIndex           int
	OvervoteDelimiter             string
	OvervoteLabel                 string
	SkippedRankLabel              string
	UndeclaredWriteInLabel        string
	TreatBlankAsUndeclaredWriteIn bool
}

// rawSource is a cvrFileSources entry as written; RCTab writes indexes as
// strings, hand-written files may use numbers.
type rawSource struct {
	FilePath                      string `json:"filePath"`
	Provider                      string `json:"provider"`
	ContestID                     text   `json:"contestId"`
	FirstVoteColumnIndex          text   `json:"firstVoteColumnIndex"`
	FirstVoteRowIndex             text   `json:"firstVoteRowIndex"`
	IDColumnIndex                 text   `json:"idColumnIndex"`
	BatchColumnIndex              text   `json:"batchColumnIndex"`
	PrecinctColumnIndex           text   `json:"precinctColumnIndex"`
	OvervoteDelimiter             string `json:"overvoteDelimiter"`
	OvervoteLabel                 string `json:"overvoteLabel"`
	SkippedRankLabel              string `json:"skippedRankLabel"`
	UndervoteLabel                string `json:"undervoteLabel"`
	UndeclaredWriteInLabel        string `json:"undeclaredWriteInLabel"`
	TreatBlankAsUndeclaredWriteIn bool   `json:"treatBlankAsUndeclaredWriteIn"`
}

// Candidate is one entry of the config's candidate list.
type Candidate struct {
	Name     string   `json:"name"`
	Code     string   `json:"code"`
	Excluded bool     `json:"excluded"`
	Aliases  []string `json:"aliases"`
}

// text is a JSON string, number, boolean or null, kept as its text.
type text string

// UnmarshalJSON reads any scalar as text; null is "".
func (t *text) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*t = text(s)
		return nil
	}
	v := strings.TrimSpace(string(b))
	if v == "null" {
		v = ""
	}
	if strings.HasPrefix(v, "{") || strings.HasPrefix(v, "[") {
		return fmt.Errorf("expected a string or number, found %s", v)
	}
	*t = text(v)
	return nil
}

// Load reads and checks an RCTab contest config. Errors name the file and
// the field (and line, for malformed JSON).
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("rctab: read config: %w", err)
	}
	cfg := &Config{Path: path}
	if err := json.Unmarshal(data, cfg); err != nil {
		return nil, fmt.Errorf("rctab: config %s: %s", path, describeJSONError(data, err))
	}
	if err := cfg.check(); err != nil {
		return nil, fmt.Errorf("rctab: config %s: %w", path, err)
	}
	return cfg, nil
}

// describeJSONError turns a decoding error into "line L: ..." or
// "field F: ...".
func describeJSONError(data []byte, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("line %d: malformed JSON: %v", lineOf(data, syn.Offset), syn)
	case errors.As(err, &typ):
		return fmt.Sprintf("line %d: field %s: expected %s, found %s", lineOf(data, typ.Offset), typ.Field, typ.Type, typ.Value)
	}
	return err.Error()
}

func lineOf(data []byte, offset int64) int {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	return bytes.Count(data[:offset], []byte("\n")) + 1
}

// check applies RCTab's structural validation of the non-rule sections.
func (c *Config) check() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if c.TabulatorVersion == "" {
		bad("tabulatorVersion is required")
	}
	if strings.TrimSpace(c.OutputSettings.ContestName) == "" {
		bad("outputSettings.contestName is required")
	}
	if len(c.RawSources) == 0 {
		bad("cvrFileSources must list at least one cast vote record file")
	}
	seen := map[string]int{}
	for i, raw := range c.RawSources {
		s, err := raw.parse(i)
		if err != nil {
			errs = append(errs, err)
		}
		c.CVRFileSources = append(c.CVRFileSources, s)
		if strings.TrimSpace(s.FilePath) == "" {
			bad("cvrFileSources[%d].filePath is required", i)
			continue
		}
		p := c.ResolvePath(s.FilePath)
		if j, dup := seen[p]; dup {
			bad("cvrFileSources[%d].filePath %q repeats cvrFileSources[%d]", i, s.FilePath, j)
		}
		seen[p] = i
		if s.OvervoteDelimiter != "" && s.OvervoteLabel != "" {
			bad("cvrFileSources[%d]: overvoteDelimiter and overvoteLabel can't both be supplied", i)
		}
	}
	if len(c.Candidates) == 0 {
		bad("candidates must list at least one candidate")
	}
	names := map[string]int{}
	for i, cand := range c.Candidates {
		if strings.TrimSpace(cand.Name) == "" {
			bad("candidates[%d].name is required", i)
		}
		for _, n := range append([]string{cand.Name, cand.Code}, cand.Aliases...) {
			n = strings.TrimSpace(n)
			if n == "" {
				continue
			}
			if j, dup := names[n]; dup && j != i {
				bad("candidates[%d]: name or alias %q is already used by candidates[%d]", i, n, j)
			}
			names[n] = i
		}
	}
	return errors.Join(errs...)
}

// ResolvePath resolves a path from the config against the config's folder.
func (c *Config) ResolvePath(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(filepath.Dir(c.Path), p)
}

// parse checks a raw source's indexes and returns the Source.
func (r rawSource) parse(i int) (Source, error) {
	s := Source{Index: i, FilePath: r.FilePath, Provider: r.Provider, ContestID: strings.TrimSpace(string(r.ContestID)),
		OvervoteDelimiter: r.OvervoteDelimiter, OvervoteLabel: r.OvervoteLabel, SkippedRankLabel: r.SkippedRankLabel,
		UndeclaredWriteInLabel: r.UndeclaredWriteInLabel, TreatBlankAsUndeclaredWriteIn: r.TreatBlankAsUndeclaredWriteIn}
	if s.SkippedRankLabel == "" {
		s.SkippedRankLabel = r.UndervoteLabel
	}
	var errs []error
	for _, f := range []struct {
		name string
		raw  text
		dst  *int
	}{
		{"firstVoteColumnIndex", r.FirstVoteColumnIndex, &s.FirstVoteColumnIndex},
		{"firstVoteRowIndex", r.FirstVoteRowIndex, &s.FirstVoteRowIndex},
		{"idColumnIndex", r.IDColumnIndex, &s.IDColumnIndex},
		{"batchColumnIndex", r.BatchColumnIndex, &s.BatchColumnIndex},
		{"precinctColumnIndex", r.PrecinctColumnIndex, &s.PrecinctColumnIndex},
	} {
		v := strings.TrimSpace(string(f.raw))
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100000 {
			errs = append(errs, fmt.Errorf("cvrFileSources[%d].%s: %q is not an integer from 1 to 100000", i, f.name, v))
			continue
		}
		*f.dst = n
	}
	return s, errors.Join(errs...)
}
