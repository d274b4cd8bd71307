package ddblimit

import (
	"fmt"
	"sort"
	"strings"
)

// Stats counts what a Transport did.
type Stats struct {
	Requests, Throttled, Conflicts, Lost int
	// Unprocessed counts the items of BatchWriteItem requests handed back
	// as UnprocessedItems (their partitions were over budget).
	Unprocessed int
	// Stale counts eventually consistent answers that lagged (StaleReads).
	Stale int
	// Ops counts by operation (PutItem, TransactWriteItems, ...).
	Ops map[string]OpStats
	// Partitions counts by table and partition key value ("table value").
	Partitions map[string]PartitionStats
}

// OpStats counts the requests of one operation.
type OpStats struct {
	Requests, Throttled, Conflicts, Lost, Unprocessed int
	// Errors counts the errors DynamoDB Local answered with, by code
	// (ConditionalCheckFailedException, TransactionCanceledException, ...).
	Errors map[string]int
}

// PartitionStats is what one partition consumed and how often it throttled.
type PartitionStats struct {
	ReadUnits, WriteUnits float64
	Throttled             int
}

func newStats() Stats {
	return Stats{Ops: map[string]OpStats{}, Partitions: map[string]PartitionStats{}}
}

func (s *Stats) op(name string, f func(*OpStats)) {
	o := s.Ops[name]
	f(&o)
	s.Ops[name] = o
}

func (s *Stats) request(op string)  { s.Requests++; s.op(op, func(o *OpStats) { o.Requests++ }) }
func (s *Stats) throttle(op string) { s.Throttled++; s.op(op, func(o *OpStats) { o.Throttled++ }) }
func (s *Stats) conflict(op string) { s.Conflicts++; s.op(op, func(o *OpStats) { o.Conflicts++ }) }
func (s *Stats) lost(op string)     { s.Lost++; s.op(op, func(o *OpStats) { o.Lost++ }) }

// unprocessed counts n items of a batch handed back unprocessed.
func (s *Stats) unprocessed(op string, n int) {
	s.Unprocessed += n
	s.op(op, func(o *OpStats) { o.Unprocessed += n })
}

func (s *Stats) answered(op, code string) {
	s.op(op, func(o *OpStats) {
		if o.Errors == nil {
			o.Errors = map[string]int{}
		}
		o.Errors[code]++
	})
}

func (s *Stats) throttledAt(partition string) {
	p := s.Partitions[partition]
	p.Throttled++
	s.Partitions[partition] = p
}

func (s *Stats) consumed(partition string, read, write float64) {
	p := s.Partitions[partition]
	p.ReadUnits += read
	p.WriteUnits += write
	s.Partitions[partition] = p
}

// Stats returns a copy of the counters so far.
func (t *Transport) Stats() Stats {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := Stats{Requests: t.stats.Requests, Throttled: t.stats.Throttled, Conflicts: t.stats.Conflicts, Lost: t.stats.Lost, Unprocessed: t.stats.Unprocessed, Stale: t.stats.Stale,
		Ops: map[string]OpStats{}, Partitions: map[string]PartitionStats{}}
	for k, o := range t.stats.Ops {
		errs := map[string]int{}
		for c, n := range o.Errors {
			errs[c] = n
		}
		o.Errors = errs
		out.Ops[k] = o
	}
	for k, p := range t.stats.Partitions {
		out.Partitions[k] = p
	}
	return out
}

// String summarises the counters: totals, then each operation, then the
// busiest partitions by write units.
func (s Stats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d requests, %d throttled, %d transaction conflicts, %d lost responses, %d batch items unprocessed, %d stale answers", s.Requests, s.Throttled, s.Conflicts, s.Lost, s.Unprocessed, s.Stale)
	ops := make([]string, 0, len(s.Ops))
	for k := range s.Ops {
		ops = append(ops, k)
	}
	sort.Strings(ops)
	for _, k := range ops {
		o := s.Ops[k]
		fmt.Fprintf(&b, "\n  %-20s %7d requests %6d throttled %6d conflicts %5d lost  answered %v", k, o.Requests, o.Throttled, o.Conflicts, o.Lost, o.Errors)
	}
	parts := make([]string, 0, len(s.Partitions))
	for k := range s.Partitions {
		parts = append(parts, k)
	}
	sort.Slice(parts, func(i, j int) bool {
		return s.Partitions[parts[i]].WriteUnits+s.Partitions[parts[i]].ReadUnits > s.Partitions[parts[j]].WriteUnits+s.Partitions[parts[j]].ReadUnits
	})
	for i, k := range parts {
		if i == 5 {
			fmt.Fprintf(&b, "\n  ... %d more partitions", len(parts)-i)
			break
		}
		p := s.Partitions[k]
		fmt.Fprintf(&b, "\n  %-50.50s %9.0f WCU %9.0f RCU %6d throttled", k, p.WriteUnits, p.ReadUnits, p.Throttled)
	}
	return b.String()
}
