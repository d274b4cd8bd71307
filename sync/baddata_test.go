package cloudsync_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"votedesk/app"
	cloudsync "votedesk/sync"
)

// rawClient talks to DynamoDB Local directly, to plant bad data.
func rawClient() *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region: "us-east-1", BaseEndpoint: aws.String(endpoint),
		Credentials: cloudsync.StaticCredentials("test", "test"),
	})
}

// putSegment writes one cloud log segment holding the given JSON lines.
func putSegment(t *testing.T, prefix string, first, last uint64, lines ...string) {
	t.Helper()
	_, err := rawClient().PutItem(context.Background(), &dynamodb.PutItemInput{
		TableName: aws.String(cloudsync.TablesFor(prefix).Log),
		Item: map[string]types.AttributeValue{
			"PK":          &types.AttributeValueMemberS{Value: "LOG#global"},
			"SK":          &types.AttributeValueMemberS{Value: fmt.Sprintf("%020d", first)},
			"entity_type": &types.AttributeValueMemberS{Value: "EVENTS"},
			"first_seq":   &types.AttributeValueMemberN{Value: fmt.Sprint(first)},
			"last_seq":    &types.AttributeValueMemberN{Value: fmt.Sprint(last)},
			"events":      &types.AttributeValueMemberS{Value: strings.Join(lines, "\n")},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
}

// encoded is the log line of an event, chained after prev at seq.
func encoded(t *testing.T, seq uint64, prev string, typ app.EventType, data string) (string, string) {
	t.Helper()
	ev := &app.Event{Seq: seq, ID: "feedfacefeedface-0000000001", When: start, Actor: "olga", Type: typ, Data: json.RawMessage(data)}
	ev.Chain(prev)
	b, err := app.EncodeEvent(ev)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), ev.Hash
}

// TestBadCloudData plants bad segments after the cloud log's head: pulling
// them fails with an error naming the sequence number and changes nothing on
// the device.
func TestBadCloudData(t *testing.T) {
	created := `{"name":"Planted","secret_ballot":false}`
	for _, tc := range []struct {
		name string
		want string
		// plant writes the bad data after head (whose hash is prev).
		plant func(t *testing.T, prefix string, head uint64, prev string)
	}{
		{"MalformedEvent", "is malformed", func(t *testing.T, prefix string, head uint64, prev string) {
			putSegment(t, prefix, head+1, head+1, `{"seq":`+fmt.Sprint(head+1)+`,"id":"x",`)
		}},
		{"BrokenHashChain", "hash chain is broken", func(t *testing.T, prefix string, head uint64, prev string) {
			line, _ := encoded(t, head+1, strings.Repeat("0", 64), app.EvElectionCreated, created)
			putSegment(t, prefix, head+1, head+1, line)
		}},
		{"TamperedContent", "does not match its content", func(t *testing.T, prefix string, head uint64, prev string) {
			line, _ := encoded(t, head+1, prev, app.EvElectionCreated, created)
			putSegment(t, prefix, head+1, head+1, strings.Replace(line, "Planted", "Plant3d", 1))
		}},
		{"GapInSequence", "is missing", func(t *testing.T, prefix string, head uint64, prev string) {
			line, _ := encoded(t, head+2, prev, app.EvElectionCreated, created)
			putSegment(t, prefix, head+2, head+2, line)
		}},
		{"WrongSequenceInSegment", "holds sequence", func(t *testing.T, prefix string, head uint64, prev string) {
			line, _ := encoded(t, head+5, prev, app.EvElectionCreated, created)
			putSegment(t, prefix, head+1, head+1, line)
		}},
		{"UnknownType", "unknown type", func(t *testing.T, prefix string, head uint64, prev string) {
			line, _ := encoded(t, head+1, prev, app.EventType("ElectionStolen"), created)
			putSegment(t, prefix, head+1, head+1, line)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prefix := newPrefix(t)
			a := newDevice(t, "A", prefix, 0, nil)
			seed(a, 5)
			a.sync()
			b := newDevice(t, "B", prefix, time.Minute, nil)
			b.sync()
			castMayor(b, "ben", 1, 3) // pending events stay pending
			head, prev, _ := a.head()
			tc.plant(t, prefix, head, prev)
			beforeHash := b.stateHash()
			bc, bh, bp := b.head()
			_, err := b.syncer.Sync(b.ctx, nil)
			if err == nil {
				t.Fatal("sync accepted bad cloud data")
			}
			msg := app.ErrorMessage(err)
			t.Logf("error: %s", msg)
			if !strings.Contains(msg, fmt.Sprintf("event %d", head+1)) || !strings.Contains(msg, tc.want) {
				t.Errorf("error %q; want it to name event %d and say %q", msg, head+1, tc.want)
			}
			if got := b.stateHash(); got != beforeHash {
				t.Error("the projection changed")
			}
			if c, h, p := b.head(); c != bc || h != bh || p != bp {
				t.Errorf("log head moved: confirmed %d->%d, pending %d->%d", bc, c, bp, p)
			}
			st, err := b.syncer.Status(b.ctx)
			b.must(err)
			if !strings.Contains(st.LastError, fmt.Sprintf("event %d", head+1)) {
				t.Errorf("status last error = %q", st.LastError)
			}
		})
	}
}

// TestNoCredentials: with no AWS credentials to be found, a sync says so
// (the SDK's signing error, recognised by its type) and changes nothing.
func TestNoCredentials(t *testing.T) {
	cfg := cloudConfig(newPrefix(t), nil)
	cfg.Credentials = aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
		return aws.Credentials{}, errors.New("no credentials in the environment, the shared files or the instance")
	})
	c, err := cloudsync.Connect(context.Background(), cfg)
	if err == nil {
		_, err = c.InitTables(context.Background())
	}
	if app.ErrorCode(err) != app.CodeUnavailable || !strings.Contains(app.ErrorMessage(err), "no AWS credentials found") {
		t.Errorf("without credentials: %v (%s)", err, app.ErrorMessage(err))
	}
}
