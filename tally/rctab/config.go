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

	"votedesk/tally/cvr"
)

// Config is an RCTab contest config file, as read. Numeric settings are
// kept as the strings RCTab keeps them as; Contest and Rules interpret them.
type Config struct {
	// Path is the file the config was read from; relative CVR paths
	// resolve against its directory.
	Path             string            `json:"-"`
	TabulatorVersion string            `json:"tabulatorVersion"`
	OutputSettings   OutputSettings    `json:"outputSettings"`
	RawSources       []json.RawMessage `json:"cvrFileSources"`
	// CVRFileSources are the sources, their paths resolved against the
	// config's folder.
	CVRFileSources []cvr.Source `json:"-"`
	// SourcePaths are the sources' filePaths as the config writes them
	// (CVRFileSources hold them resolved), for reports that name them so.
	SourcePaths []string    `json:"-"`
	Candidates  []Candidate `json:"candidates"`
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
		return nil, errorf("read config: %w", err)
	}
	cfg := &Config{Path: path}
	if err := json.Unmarshal(data, cfg); err != nil {
		return nil, errorf("config %s: %s", path, describeJSONError(data, err))
	}
	if err := cfg.check(); err != nil {
		return nil, errorf("config %s: %w", path, err)
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

// filePathSeparator separates several files in one source's filePath.
const filePathSeparator = ";;"

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
		src, err := parseSource(i, raw)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if strings.TrimSpace(src.FilePath) == "" {
			bad("cvrFileSources[%d].filePath is required", i)
			continue
		}
		// RCTab 2 lets one source name several files with the same
		// settings, separated by ";;": each is read as a source of its own.
		for _, path := range strings.Split(src.FilePath, filePathSeparator) {
			s := src
			if s.FilePath = strings.TrimSpace(path); s.FilePath == "" {
				bad("cvrFileSources[%d].filePath %q names an empty file between its %q separators", i, src.FilePath, filePathSeparator)
				continue
			}
			c.SourcePaths = append(c.SourcePaths, s.FilePath)
			s.FilePath = c.ResolvePath(s.FilePath)
			c.CVRFileSources = append(c.CVRFileSources, s)
			if j, dup := seen[s.FilePath]; dup {
				bad("cvrFileSources[%d].filePath %q repeats cvrFileSources[%d]", i, s.FilePath, j)
			}
			seen[s.FilePath] = i
			if err := s.Validate(); err != nil {
				bad("cvrFileSources[%d]: %v", i, err)
			}
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

// indexFields are the cvrFileSources fields that hold 1-based indexes.
var indexFields = []string{"firstVoteColumnIndex", "firstVoteRowIndex", "idColumnIndex", "batchColumnIndex", "precinctColumnIndex"}

// parseSource reads entry i of cvrFileSources, checking each index field
// first so an error can name it.
func parseSource(i int, raw json.RawMessage) (cvr.Source, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return cvr.Source{}, fmt.Errorf("cvrFileSources[%d]: %v", i, err)
	}
	var errs []error
	for _, name := range indexFields {
		v, ok := fields[name]
		if !ok {
			continue
		}
		var t text
		err := json.Unmarshal(v, &t)
		if s := strings.TrimSpace(string(t)); err == nil && s != "" {
			n, convErr := strconv.Atoi(s)
			if convErr != nil || n < 1 || n > 100000 {
				err = fmt.Errorf("%q is not an integer from 1 to 100000", s)
			}
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("cvrFileSources[%d].%s: %v", i, name, err))
		}
	}
	if len(errs) > 0 {
		return cvr.Source{}, errors.Join(errs...)
	}
	var s cvr.Source
	if err := json.Unmarshal(raw, &s); err != nil {
		return cvr.Source{}, fmt.Errorf("cvrFileSources[%d]: %v", i, err)
	}
	return s, nil
}
