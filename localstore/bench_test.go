package localstore

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"votedesk/app"
)

// BenchmarkPutOverwrite rewrites one item of 24 attributes, as every
// applied ballot rewrites its election's item: the old value's GSI-1 entry
// is looked for each time.
func BenchmarkPutOverwrite(b *testing.B) {
	// Not MustOpenStore: the item is put without an event, so the
	// database would not verify.
	s, err := Open(filepath.Join(b.TempDir(), "votedesk.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	it := sampleItem()
	for i := range 12 {
		it.Set(fmt.Sprintf("setting_%02d", i), app.S(fmt.Sprintf("a value of some length, number %d", i)))
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		err := s.Update(ctx, func(tx app.Tx) error {
			for n := range 1000 {
				it.Set("ballots", app.N(int64(n)))
				if err := tx.Put(it); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGetItem reads an item of two dozen attributes a thousand times
// in one transaction, as applying events reads an election, a user and an
// id record for every ballot.
func BenchmarkGetItem(b *testing.B) {
	s, err := Open(filepath.Join(b.TempDir(), "votedesk.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	it := sampleItem()
	for i := range 20 {
		it.Set(fmt.Sprintf("setting_%02d", i), app.S(fmt.Sprintf("value %d", i)))
	}
	ctx := context.Background()
	if err := s.Update(ctx, func(tx app.Tx) error { return tx.Put(it) }); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		err := s.View(ctx, func(tx app.Tx) error {
			for range 1000 {
				got, ok, err := tx.Get(it.PK(), it.SK())
				if err != nil || !ok || len(got) != len(it) {
					return fmt.Errorf("got %d attributes, %v, %v", len(got), ok, err)
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
