package cli_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	cloudsync "votedesk/sync"
)

// TestCLIVerifyCloudFindsTampering edits one event's bytes in the cloud log
// (DynamoDB Local) and expects `votedesk verify --cloud` to name its
// sequence number; the intact log verifies.
func TestCLIVerifyCloudFindsTampering(t *testing.T) {
	prefix := fmt.Sprintf("verify%d_", time.Now().UnixNano())
	cloud := []string{"--endpoint", ddbEndpoint, "--table-prefix", prefix}
	c := newSyncCLI(t)
	c.ok(append([]string{"cloud", "init"}, cloud...)...)
	if r := c.run([]string{"VOTEDESK_PASSWORD=owner-password"}, "user", "add", "olga", "--email", "olga@example.org"); r.code != 0 {
		t.Fatalf("user add: %s", r.err)
	}
	c.signedInSync("olga", "owner-password")
	c.ok("election", "create", "Mayor")
	c.ok("candidate", "add", "Mayor", "Kiss", "Wright")
	c.ok("voter", "add", "Mayor", "ann", "bob")
	c.ok("election", "launch", "Mayor")
	c.ok("ballot", "cast", "Mayor", "--voter", "ann", "Kiss")
	c.ok(append([]string{"sync"}, cloud...)...)
	if out := c.ok(append([]string{"verify", "--cloud"}, cloud...)...); !strings.Contains(out, "verified the cloud log: 6 events") {
		t.Fatalf("verify --cloud of an intact log: %s", out)
	}

	// Event 6 (the ballot) now ranks Wright first, in the cloud only.
	db := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(ddbEndpoint),
		Credentials: cloudsync.StaticCredentials("test", "test")})
	ctx := context.Background()
	// The ballot is stored in the global shard (one ballot is too light
	// for Mayor's own) and stands sixth in the log every device holds;
	// sync's TestTamperedShardIsNamed changes one in an election's shard.
	out, err := db.Scan(ctx, &dynamodb.ScanInput{
		TableName:      aws.String(cloudsync.TablesFor(prefix).Log),
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		t.Fatal(err)
	}
	tampered := false
	for _, item := range out.Items {
		lines, gz := segmentLines(t, item)
		if !strings.Contains(lines, `"type":"BallotCast"`) {
			continue
		}
		lines = strings.Replace(lines, `[["Kiss"]]`, `[["Wright"]]`, 1)
		if gz {
			item["events_gz"] = &types.AttributeValueMemberB{Value: gzipped(t, lines)}
		} else {
			item["events"] = &types.AttributeValueMemberS{Value: lines}
		}
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(cloudsync.TablesFor(prefix).Log), Item: item}); err != nil {
			t.Fatal(err)
		}
		tampered = true
	}
	if !tampered {
		t.Fatal("found no segment holding event 6 to tamper with")
	}
	r := c.run(nil, append([]string{"verify", "--cloud", "--json"}, cloud...)...)
	if r.code != 1 || !strings.Contains(r.err, "first bad event: 6") || !strings.Contains(r.out, `"first_bad_seq": 6`) {
		t.Errorf("verify --cloud after tampering: exit %d\n%s%s", r.code, r.out, r.err)
	}
	// The device's own copy is intact.
	c.ok("verify")
}

// segmentLines returns the events of a cloud log segment as JSON lines, and
// whether the segment stores them gzipped.
func segmentLines(t *testing.T, item map[string]types.AttributeValue) (string, bool) {
	t.Helper()
	if ev, ok := item["events"].(*types.AttributeValueMemberS); ok {
		return ev.Value, false
	}
	b, ok := item["events_gz"].(*types.AttributeValueMemberB)
	if !ok {
		t.Fatalf("segment %v holds no events", item["SK"])
	}
	r, err := gzip.NewReader(bytes.NewReader(b.Value))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw), true
}

func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
