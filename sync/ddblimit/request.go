package ddblimit

import (
	"encoding/json"
	"regexp"
	"strings"
)

// access is one item or partition a request touches.
type access struct {
	table string
	pk    string // the partition key value as DynamoDB JSON
	sk    string // the sort key value, for items
	write bool
	units float64 // write units, known before the request is sent
	// consistent is true for strongly consistent reads.
	consistent bool
	// raw is a BatchWriteItem element as sent, to forward or hand back as
	// unprocessed.
	raw json.RawMessage
}

// partition names the bucket an access draws on.
func (a access) partition() string { return a.table + " " + keyText(a.pk) }

// item names the item an access writes, for transaction conflicts.
func (a access) item() string { return a.table + "\x00" + a.pk + "\x00" + a.sk }

// request is what a DynamoDB call touches, as read from its JSON.
type request struct {
	op       string
	accesses []access
	// transact is true for TransactWriteItems: its accesses are its items,
	// in order.
	transact bool
}

// itemRequest is the part of a single-item request, a Query or an element of
// TransactItems this package reads.
type itemRequest struct {
	TableName                 string
	Item                      map[string]json.RawMessage
	Key                       map[string]json.RawMessage
	ExpressionAttributeValues map[string]json.RawMessage
	ExpressionAttributeNames  map[string]string
	KeyConditionExpression    string
	IndexName                 string
	ConsistentRead            bool
}

// parse reads the partitions a request touches from its body. A Scan is one
// access with no partition key (it reads them all; its answer says which);
// table management touches nothing.
func parse(op string, body []byte, keyAttr, sortAttr string) (request, error) {
	r := request{op: op}
	key := func(it map[string]json.RawMessage) (string, string) {
		return string(it[keyAttr]), string(it[sortAttr])
	}
	switch op {
	case "PutItem", "UpdateItem", "DeleteItem", "GetItem", "Query":
		var in itemRequest
		if err := json.Unmarshal(body, &in); err != nil {
			return r, err
		}
		a := access{table: in.TableName, consistent: in.ConsistentRead}
		switch op {
		case "PutItem":
			a.pk, a.sk = key(in.Item)
			a.write, a.units = true, writeUnits(itemSize(in.Item))
		case "UpdateItem":
			a.pk, a.sk = key(in.Key)
			a.write, a.units = true, writeUnits(itemSize(in.Key)+itemSize(in.ExpressionAttributeValues))
		case "DeleteItem":
			a.pk, a.sk = key(in.Key)
			a.write, a.units = true, 1
		case "GetItem":
			a.pk, a.sk = key(in.Key)
		case "Query":
			a.pk = queryPartition(in, keyAttr)
			if in.IndexName != "" {
				a.table += "/index/" + in.IndexName
				a.consistent = false
			}
		}
		r.accesses = []access{a}
	case "Scan":
		var in itemRequest
		if err := json.Unmarshal(body, &in); err != nil {
			return r, err
		}
		r.accesses = []access{{table: in.TableName, consistent: in.ConsistentRead}}
	case "TransactWriteItems":
		var in struct{ TransactItems []map[string]itemRequest }
		if err := json.Unmarshal(body, &in); err != nil {
			return r, err
		}
		r.transact = true
		for _, ti := range in.TransactItems {
			for kind, it := range ti {
				a := access{table: it.TableName, write: true}
				switch kind {
				case "Put":
					a.pk, a.sk = key(it.Item)
					a.units = 2 * writeUnits(itemSize(it.Item))
				case "Update":
					a.pk, a.sk = key(it.Key)
					a.units = 2 * writeUnits(itemSize(it.Key)+itemSize(it.ExpressionAttributeValues))
				default: // Delete, ConditionCheck
					a.pk, a.sk = key(it.Key)
					a.units = 2
				}
				r.accesses = append(r.accesses, a)
			}
		}
	case "BatchWriteItem":
		var in struct {
			RequestItems map[string][]json.RawMessage
		}
		if err := json.Unmarshal(body, &in); err != nil {
			return r, err
		}
		for table, reqs := range in.RequestItems {
			for _, raw := range reqs {
				var w struct {
					PutRequest    *struct{ Item map[string]json.RawMessage }
					DeleteRequest *struct{ Key map[string]json.RawMessage }
				}
				if err := json.Unmarshal(raw, &w); err != nil {
					return r, err
				}
				a := access{table: table, write: true, units: 1, raw: raw}
				if w.PutRequest != nil {
					a.pk, a.sk = key(w.PutRequest.Item)
					a.units = writeUnits(itemSize(w.PutRequest.Item))
				} else if w.DeleteRequest != nil {
					a.pk, a.sk = key(w.DeleteRequest.Key)
				}
				r.accesses = append(r.accesses, a)
			}
		}
	case "BatchGetItem":
		var in struct {
			RequestItems map[string]struct {
				Keys           []map[string]json.RawMessage
				ConsistentRead bool
			}
		}
		if err := json.Unmarshal(body, &in); err != nil {
			return r, err
		}
		for table, g := range in.RequestItems {
			for _, k := range g.Keys {
				pk, sk := key(k)
				r.accesses = append(r.accesses, access{table: table, pk: pk, sk: sk, consistent: g.ConsistentRead})
			}
		}
	}
	return r, nil
}

// equality matches "name = :value" in a key condition.
var equality = regexp.MustCompile(`([#\w.]+)\s*=\s*(:\w+)`)

// queryPartition finds the partition key value of a Query: the value the key
// condition sets the partition key equal to (for an index, the first
// equality, which is its partition key's).
func queryPartition(in itemRequest, keyAttr string) string {
	first := ""
	for _, m := range equality.FindAllStringSubmatch(in.KeyConditionExpression, -1) {
		name := m[1]
		if alias, ok := in.ExpressionAttributeNames[name]; ok {
			name = alias
		}
		v := string(in.ExpressionAttributeValues[m[2]])
		if in.IndexName == "" && name == keyAttr {
			return v
		}
		if first == "" {
			first = v
		}
	}
	return first
}

// keyText shows a key value for people: the string of a string key, the
// JSON of anything else.
func keyText(raw string) string {
	var v map[string]string
	if json.Unmarshal([]byte(raw), &v) == nil && len(v) == 1 {
		for typ, s := range v {
			if typ == "S" {
				return s
			}
			return typ + ":" + s
		}
	}
	return strings.TrimSpace(raw)
}
