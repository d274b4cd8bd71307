package localstore

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The cache bucket holds what app.Tx.Cache keeps: values the app derives
// from the projection to answer again faster (the count cache), each
// stamped by the app with what it was derived from. It is not part of the
// projection: the state hash, sync and verify's rebuild do not read it,
// and throwing the projection away throws it away too (dropCache), since
// no stamp says which rules made the projection.

func (t *tx) Cached(key string) ([]byte, error) {
	b := t.btx.Bucket(bucketCache)
	if b == nil {
		return nil, nil
	}
	return b.Get([]byte(key)), nil
}

func (t *tx) Cache(key string, v []byte) error {
	if v == nil {
		b := t.btx.Bucket(bucketCache)
		if b == nil {
			return nil
		}
		return b.Delete([]byte(key))
	}
	b, err := t.btx.CreateBucketIfNotExists(bucketCache)
	if err != nil {
		return fmt.Errorf("localstore: create bucket %s: %w", bucketCache, err)
	}
	return b.Put([]byte(key), v)
}

func (t *tx) EachCached(fn func(key string, v []byte) (bool, error)) error {
	b := t.btx.Bucket(bucketCache)
	if b == nil {
		return nil
	}
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if more, err := fn(string(k), v); err != nil || !more {
			return err
		}
	}
	return nil
}

// dropCache throws away everything the cache keeps.
func dropCache(btx *bolt.Tx) error {
	if btx.Bucket(bucketCache) == nil {
		return nil
	}
	if err := btx.DeleteBucket(bucketCache); err != nil {
		return fmt.Errorf("localstore: clear %s: %w", bucketCache, err)
	}
	return nil
}
