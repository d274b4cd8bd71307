package cvr

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"votedesk/tally"
)

// A Hart Verity CVR export is a folder of XML files, one per ballot sheet
// (a file ending .sig.xml is a signature, not a ballot). RCTab's hart
// provider reads it; so does this reader, the same way:
//
//   - In each file's Contests, the Contest whose Id is the source's
//     contestId is one cast vote record; a file without it is skipped.
//   - Each Option of the contest is a candidate, by its Id; its Value holds
//     a digit per rank, left to right, "1" where that rank is marked ("0100"
//     is rank 2; "0101" ranks 2 and 4). An Option Id is resolved like a
//     name, so an RCTab config lists Ids as its candidates' codes or
//     aliases; the source's undeclaredWriteInLabel names the write-in
//     option's Id. One Id must keep one Name across the files.
//   - The record id is the CvrGuid, the precinct the PrecinctSplit's Name,
//     the batch the BatchNumber.
//
// Files are read in name order, so a read is the same on every machine.
const maxHartFileBytes = 16 << 20 // one ballot sheet: a few kilobytes

type hartCVR struct {
	Contests []struct {
		Name    string `xml:"Name"`
		ID      string `xml:"Id"`
		Options []struct {
			Name    string    `xml:"Name"`
			ID      string    `xml:"Id"`
			Value   string    `xml:"Value"`
			WriteIn *struct{} `xml:"WriteInData"`
		} `xml:"Options>Option"`
	} `xml:"Contests>Contest"`
	BatchNumber   string `xml:"BatchNumber"`
	CvrGuid       string `xml:"CvrGuid"`
	PrecinctSplit struct {
		Name string `xml:"Name"`
	} `xml:"PrecinctSplit"`
}

func readHart(j *job) error {
	files, err := hartFiles(j.src.FilePath)
	if err != nil {
		return err
	}
	j.addSizes(files)
	contest := strings.TrimSpace(j.src.ContestID)
	_, byName := j.cands.(interface{ declare([]string) })
	type firstSeen struct{ name, file string }
	named := map[string]firstSeen{}     // option Id: its Name and file, as first seen
	resolved := map[string]resolution{} // option Id: what it stands for
	var marks []tally.Mark
	for _, path := range files {
		j.file = filepath.Base(path)
		c, size, err := readHartFile(path)
		if err != nil {
			return err
		}
		j.done += size
		if contest == "" {
			var known []string
			for _, ct := range c.Contests {
				known = append(known, fmt.Sprintf("%s (%s)", strings.TrimSpace(ct.ID), strings.TrimSpace(ct.Name)))
			}
			return &ParseError{File: j.file, Err: fmt.Errorf("no contestId is given; this file's contests are %s", strings.Join(known, ", "))}
		}
		found := false
		for _, ct := range c.Contests {
			if strings.TrimSpace(ct.ID) != contest {
				continue
			}
			found = true
			marks = marks[:0]
			for _, o := range ct.Options {
				id := strings.TrimSpace(o.ID)
				name := strings.TrimSpace(o.Name)
				if id == "" {
					return &ParseError{File: j.file, Err: fmt.Errorf("an option of contest %s has no Id", contest)}
				}
				res, ok := resolved[id]
				if !ok {
					key := id
					if byName && id != j.src.UndeclaredWriteInLabel {
						key = name
						if name == "" && o.WriteIn != nil {
							key = UndeclaredWriteIn
						}
					}
					if key == "" {
						return &ParseError{File: j.file, Err: fmt.Errorf("option %s has no Name", id)}
					}
					res, err = j.resolve([]byte(key))
					if err != nil {
						return &ParseError{File: j.file, Err: fmt.Errorf("option %s (%s): %v", id, name, err)}
					}
					resolved[id] = res
				}
				if id != j.src.UndeclaredWriteInLabel {
					if first, ok := named[id]; !ok {
						named[id] = firstSeen{name, j.file}
					} else if first.name != name {
						return &ParseError{File: j.file, Err: fmt.Errorf("option %s is %q here but %q in %s: one Id must name one candidate", id, name, first.name, first.file)}
					}
				}
				if len(o.Value) > 0xFFFF {
					return &ParseError{File: j.file, Err: fmt.Errorf("option %s has %d ranks, more than 65535", id, len(o.Value))}
				}
				for r := 0; r < len(o.Value); r++ {
					switch o.Value[r] {
					case '1':
						if !res.skip {
							marks = append(marks, tally.Mark{Rank: uint16(r + 1), Candidate: res.cand})
						}
					case '0':
					default:
						return &ParseError{File: j.file, Err: fmt.Errorf("option %s has Value %q: a digit 0 or 1 per rank", id, o.Value)}
					}
				}
			}
			slices.SortStableFunc(marks, func(a, b tally.Mark) int { return int(a.Rank) - int(b.Rank) })
			if err := j.add(marks, []byte(strings.TrimSpace(c.CvrGuid)), 1, []byte(strings.TrimSpace(c.PrecinctSplit.Name))); err != nil {
				return &ParseError{File: j.file, Err: err}
			}
			j.out.setBatch([]byte(strings.TrimSpace(c.BatchNumber)))
		}
		if !found {
			j.stats.Skipped++
		}
		if err := j.tick(); err != nil {
			return err
		}
	}
	return nil
}

// hartFiles lists the ballot files of a Hart export folder in name order.
func hartFiles(dir string) ([]string, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("is not a folder: the hart provider reads a Hart CVR export folder of XML files")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		name := strings.ToLower(e.Name())
		if strings.HasSuffix(name, "xml") && !strings.HasSuffix(name, ".sig.xml") && !e.IsDir() {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("holds no XML files: not a Hart CVR export folder")
	}
	sort.Strings(files)
	return files, nil
}

// readHartFile reads one ballot file of a Hart export, and its size.
func readHartFile(path string) (*hartCVR, int64, error) {
	b, err := readWhole(path, maxHartFileBytes, "a Hart ballot file")
	if err != nil {
		return nil, 0, &ParseError{File: filepath.Base(path), Err: err}
	}
	var c hartCVR
	if err := xml.Unmarshal(bytes.TrimPrefix(b, utf8BOM), &c); err != nil {
		return nil, 0, &ParseError{File: filepath.Base(path), Err: fmt.Errorf("malformed Hart CVR XML: %v", err)}
	}
	return &c, int64(len(b)), nil
}

// readWhole reads a regular file of at most limit bytes, what the file is
// for naming it in the refusal.
func readWhole(path string, limit int64, what string) ([]byte, error) {
	f, fi, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > limit {
		return nil, fmt.Errorf("is %d bytes; %s has at most %d MiB", fi.Size(), what, limit>>20)
	}
	return io.ReadAll(io.LimitReader(f, limit))
}
