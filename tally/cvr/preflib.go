package cvr

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"votedesk/tally"
)

// readPrefLib reads a PrefLib ordinal preference file (.soc, .soi, .toc,
// .toi) in the format PrefLib has used since 2022:
//
//	# DATA TYPE: toi
//	# NUMBER ALTERNATIVES: 3
//	# NUMBER VOTERS: 7
//	# ALTERNATIVE NAME 1: Alice
//	...
//	4: 1,3
//	3: {1,2},3
//
// Each order line gives how many voters cast it and the alternatives they
// ranked, best first; braces hold alternatives tied at one rank. Strict
// types (soc, soi) allow no ties; complete types (soc, toc) must rank every
// alternative. The NUMBER VOTERS and NUMBER UNIQUE ORDERS headers, when
// given, must agree with the orders.
func readPrefLib(j *job) error {
	f, err := j.open()
	if err != nil {
		return err
	}
	defer f.Close()
	p := preflibParser{
		j:        j,
		lines:    newLineReader(j.counting(f)),
		header:   map[string]string{},
		names:    map[int]string{},
		dataType: strings.TrimPrefix(strings.ToLower(filepath.Ext(j.src.FilePath)), "."),
	}
	return p.parse()
}

// preflibParser holds the state of reading one PrefLib file.
type preflibParser struct {
	j        *job
	lines    *lineReader
	header   map[string]string
	names    map[int]string
	dataType string

	alternatives int
	resolved     []resolution
	known        []bool
	seenIn       []int // order number that last ranked each alternative
	voters       uint64
	orders       int
}

func (p *preflibParser) parse() error {
	inData := false
	var marks []tally.Mark
	for {
		line, err := p.lines.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		line = bytes.TrimSpace(line)
		switch {
		case len(line) == 0:
		case line[0] == '#':
			if inData {
				return p.fail(0, errors.New("header line after the first order"))
			}
			if err := p.headerLine(line); err != nil {
				return p.fail(0, err)
			}
		default:
			if !inData {
				if err := p.startData(); err != nil {
					return p.fail(0, err)
				}
				inData = true
			}
			if marks, err = p.order(line, marks[:0]); err != nil {
				return err
			}
		}
	}
	if !inData {
		if err := p.startData(); err != nil {
			return p.fail(0, err)
		}
	}
	return p.checkTotals()
}

// fail returns an error at the current line.
func (p *preflibParser) fail(col int, err error) error {
	return p.j.at(p.lines.line, col, err)
}

// headerLine records one "# KEY: value" line.
func (p *preflibParser) headerLine(line []byte) error {
	key, value, ok := strings.Cut(string(bytes.TrimSpace(line[1:])), ":")
	if !ok {
		return nil // a free comment
	}
	key, value = strings.ToUpper(strings.TrimSpace(key)), strings.TrimSpace(value)
	if num, found := strings.CutPrefix(key, "ALTERNATIVE NAME "); found {
		i, err := strconv.Atoi(num)
		if err != nil || i < 1 || i > tally.MaxCandidates {
			return fmt.Errorf("alternative number %q must be from 1 to %d", num, tally.MaxCandidates)
		}
		if _, dup := p.names[i]; dup {
			return fmt.Errorf("alternative %d is named twice", i)
		}
		if value == "" {
			return fmt.Errorf("alternative %d has an empty name", i)
		}
		p.names[i] = value
		return nil
	}
	p.header[key] = value
	if key == "TITLE" {
		p.j.meta.title = value
	}
	return nil
}

// startData checks the header once the first order line is met.
func (p *preflibParser) startData() error {
	if t, ok := p.header["DATA TYPE"]; ok {
		p.dataType = strings.ToLower(t)
	}
	switch p.dataType {
	case "soc", "soi", "toc", "toi":
	default:
		return fmt.Errorf("data type %q is not one of the ordinal types soc, soi, toc, toi", p.dataType)
	}
	n := 0
	for i := range p.names {
		n = max(n, i)
	}
	if s, ok := p.header["NUMBER ALTERNATIVES"]; ok {
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 || v > tally.MaxCandidates {
			return fmt.Errorf("NUMBER ALTERNATIVES %q must be a whole number up to %d", s, tally.MaxCandidates)
		}
		if n > v {
			return fmt.Errorf("alternative %d is named, but NUMBER ALTERNATIVES is %d", n, v)
		}
		n = v
	}
	names := make([]string, n)
	seen := make(map[string]bool, n)
	for i := range names {
		name, ok := p.names[i+1]
		if !ok {
			return fmt.Errorf("no ALTERNATIVE NAME line for alternative %d", i+1)
		}
		if seen[name] {
			return fmt.Errorf("two alternatives are named %q", name)
		}
		seen[name] = true
		names[i] = name
	}
	p.alternatives = n
	p.resolved = make([]resolution, n)
	p.known = make([]bool, n)
	p.seenIn = make([]int, n)
	p.j.declare(names)
	return nil
}

// order reads one "count: order" line and adds its ballot.
func (p *preflibParser) order(line []byte, marks []tally.Mark) ([]tally.Mark, error) {
	countText, items, ok := bytes.Cut(line, []byte{':'})
	if !ok {
		return nil, p.fail(0, fmt.Errorf("expected \"count: order\", got %q", line))
	}
	count, ok := parseUint(bytes.TrimSpace(countText), math.MaxUint32)
	if !ok || count == 0 {
		return nil, p.fail(0, fmt.Errorf("the voter count must be a whole number from 1, got %q", bytes.TrimSpace(countText)))
	}
	p.orders++
	rank, inGroup, ranked := 0, false, 0
	items = bytes.TrimSpace(items)
	for item := range bytes.SplitSeq(items, []byte{','}) {
		if len(items) == 0 {
			break // an empty order: a ballot that ranks no one
		}
		item = bytes.TrimSpace(item)
		opens := len(item) > 0 && item[0] == '{'
		if opens {
			if inGroup {
				return nil, p.fail(0, errors.New("a brace opens inside braces"))
			}
			if p.dataType == "soc" || p.dataType == "soi" {
				return nil, p.fail(0, fmt.Errorf("%s is a strict order type: ties in braces are not allowed", p.dataType))
			}
			inGroup, item = true, bytes.TrimSpace(item[1:])
			rank++
		} else if !inGroup {
			rank++
		}
		closes := len(item) > 0 && item[len(item)-1] == '}'
		if closes {
			if !inGroup {
				return nil, p.fail(0, errors.New("a brace closes that was not opened"))
			}
			item = bytes.TrimSpace(item[:len(item)-1])
		}
		if len(item) == 0 {
			return nil, p.fail(0, fmt.Errorf("empty item in the order %q", items))
		}
		m, err := p.mark(item, rank)
		if err != nil {
			return nil, err
		}
		marks = append(marks, m)
		ranked++
		if closes {
			inGroup = false
		}
	}
	if inGroup {
		return nil, p.fail(0, errors.New("a brace is not closed"))
	}
	if (p.dataType == "soc" || p.dataType == "toc") && ranked != p.alternatives {
		return nil, p.fail(0, fmt.Errorf("%s is a complete order type, but this order ranks %d of %d alternatives", p.dataType, ranked, p.alternatives))
	}
	if err := p.j.add(marks, nil, uint32(count), nil); err != nil {
		return nil, p.fail(0, err)
	}
	p.voters += count
	return marks, nil
}

// mark resolves one alternative number of the current order.
func (p *preflibParser) mark(item []byte, rank int) (tally.Mark, error) {
	a, ok := parseUint(item, uint64(p.alternatives))
	if !ok || a == 0 {
		return tally.Mark{}, p.fail(0, fmt.Errorf("expected an alternative from 1 to %d, got %q", p.alternatives, item))
	}
	if rank > 0xFFFF {
		return tally.Mark{}, p.fail(0, errors.New("an order ranks more than 65535 times"))
	}
	k := int(a - 1)
	if p.seenIn[k] == p.orders {
		return tally.Mark{}, p.fail(0, fmt.Errorf("alternative %d appears twice in one order", a))
	}
	p.seenIn[k] = p.orders
	if !p.known[k] {
		r, err := p.j.resolve([]byte(p.names[k+1]))
		if err != nil {
			return tally.Mark{}, p.fail(0, err)
		}
		if r.skip {
			return tally.Mark{}, p.fail(0, fmt.Errorf("alternative %q is the skipped-rank label", p.names[k+1]))
		}
		p.resolved[k], p.known[k] = r, true
	}
	return tally.Mark{Rank: uint16(rank), Candidate: p.resolved[k].cand}, nil
}

// checkTotals compares the orders read with the header's totals.
func (p *preflibParser) checkTotals() error {
	if s, ok := p.header["NUMBER VOTERS"]; ok {
		if v, err := strconv.ParseUint(s, 10, 64); err != nil || v != p.voters {
			return p.j.at(0, 0, fmt.Errorf("the orders hold %d voters, but NUMBER VOTERS is %q", p.voters, s))
		}
	}
	if s, ok := p.header["NUMBER UNIQUE ORDERS"]; ok {
		if v, err := strconv.Atoi(s); err != nil || v != p.orders {
			return p.j.at(0, 0, fmt.Errorf("the file has %d order lines, but NUMBER UNIQUE ORDERS is %q", p.orders, s))
		}
	}
	return nil
}
