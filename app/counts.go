package app

import "time"

// Counts are the totals kept in the METADATA/COUNTS item.
type Counts struct {
	Users       int64
	Elections   int64
	LastUpdated time.Time
}

func getCounts(tx Tx) (Counts, error) {
	it, ok, err := tx.Get(pkMetadata, skCounts)
	if err != nil || !ok {
		return Counts{}, err
	}
	return Counts{Users: it.Int("user_count"), Elections: it.Int("election_count"), LastUpdated: it.TimeAttr("last_updated")}, nil
}

// addCounts changes the totals by the given amounts.
func addCounts(tx Tx, when time.Time, users, elections int64) error {
	c, err := getCounts(tx)
	if err != nil {
		return err
	}
	it := newItem(pkMetadata, skCounts, "COUNTS")
	it.Set("user_count", N(c.Users+users))
	it.Set("election_count", N(c.Elections+elections))
	it.setTime("last_updated", when)
	return tx.Put(it)
}
