package cloudsync

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/logging"

	"votedesk/app"
)

// Config says which DynamoDB tables to sync with and how to reach them.
// Region and credentials come from the AWS environment (AWS_REGION, the
// default credential chain, profiles) unless set here; VoteDesk never
// stores credentials.
type Config struct {
	// Endpoint overrides the DynamoDB endpoint (DynamoDB Local); empty means
	// AWS_ENDPOINT_URL_DYNAMODB, else AWS's own endpoint for the region.
	Endpoint string
	// TablePrefix is put before the table names vote_data and vote_event_log.
	TablePrefix string
	// Region overrides AWS_REGION and the profile's region.
	Region string
	// Credentials, when set, replace the default credential chain (tests).
	Credentials aws.CredentialsProvider
	// HTTPClient, when set, carries every request (tests inject faults here).
	HTTPClient aws.HTTPClient
	// MaxAttempts bounds the attempts of one request (default 8).
	MaxAttempts int
	// RetryBase is the first backoff step before jitter (default 50ms); each
	// retry doubles it, up to RetryMax (default 5s).
	RetryBase, RetryMax time.Duration
	// CallTimeout bounds each call to DynamoDB with its retries (default
	// DefaultCallTimeout).
	CallTimeout time.Duration
	// ShardFrom is the least a run of ballots weighs (bytes of JSON, about)
	// to go to its election's shard of the log (default DefaultShardFrom;
	// tests lower it to reach the shards with few ballots).
	ShardFrom int
	// ClaimFrom is the stored size (bytes) above which a segment appended
	// alone is proposed and claimed (claim.go; default DefaultClaimFrom,
	// negative never; tests lower it to claim every append).
	ClaimFrom int

	// onRetry, when set, is told of each retry the SDK is about to wait
	// for, and why (app.SyncBusy*): the sync panel says so.
	onRetry func(wait time.Duration, why string)
}

// Tables names the two cloud tables.
type Tables struct {
	Data string // the projection: {prefix}vote_data
	Log  string // the shared log: {prefix}vote_event_log
}

// TablesFor returns the table names for a prefix.
func TablesFor(prefix string) Tables {
	return Tables{Data: prefix + "vote_data", Log: prefix + "vote_event_log"}
}

// Cloud is a connection to the VoteDesk tables in DynamoDB.
type Cloud struct {
	db       timedClient
	tables   Tables
	endpoint string
	region   string
	// onClaim, when set, is told of each claim a read resolves: the key
	// of the proposal it names (verify counts the proposals no claim
	// names; a syncer learns which of its proposals placed its runs).
	// Reads call it from their own goroutine.
	onClaim func(pk, sk string)
	// onRetry, when set, is told of each wait before a request is sent
	// again (the SDK's retries, and a throttled transaction's), and why.
	onRetry func(time.Duration, string)
}

// Connect builds a DynamoDB client from cfg and the AWS environment. It does
// not talk to DynamoDB yet.
func Connect(ctx context.Context, cfg Config) (*Cloud, error) {
	opts := []func(*config.LoadOptions) error{config.WithLogger(logging.Nop{})}
	if cfg.Region != "" {
		opts = append(opts, config.WithRegion(cfg.Region))
	}
	if cfg.Credentials != nil {
		opts = append(opts, config.WithCredentialsProvider(cfg.Credentials))
	}
	attempts := cfg.MaxAttempts
	if attempts == 0 {
		attempts = 8
	}
	backoff := jitterBackoff{base: cfg.RetryBase, max: cfg.RetryMax}
	if backoff.base == 0 {
		backoff.base = 50 * time.Millisecond
	}
	if backoff.max == 0 {
		backoff.max = 5 * time.Second
	}
	opts = append(opts, config.WithRetryer(func() aws.Retryer {
		r := retry.NewStandard(func(o *retry.StandardOptions) {
			o.MaxAttempts = attempts
			o.Backoff = backoff
			o.RateLimiter = ratelimit.None
			o.Retryables = append(o.Retryables, retry.IsErrorRetryableFunc(retryTruncated))
		})
		if cfg.onRetry == nil {
			return r
		}
		return toldRetryer{RetryerV2: r, tell: cfg.onRetry}
	}))
	awsCfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, configError(err)
	}
	endpoint := cfg.Endpoint
	if endpoint == "" {
		endpoint = os.Getenv("AWS_ENDPOINT_URL_DYNAMODB")
	}
	if awsCfg.Region == "" {
		if endpoint == "" {
			return nil, configError(fmt.Errorf("no AWS region: give one (for example eu-west-1) under Cloud connection on the app's Sync screen, in AWS_REGION, or in your AWS profile"))
		}
		// DynamoDB Local ignores the region, but the signer needs one.
		awsCfg.Region = "us-east-1"
	}
	if awsCfg.Credentials != nil {
		awsCfg.Credentials = markedCredentials{awsCfg.Credentials}
	}
	client := dynamodb.NewFromConfig(awsCfg, func(o *dynamodb.Options) {
		// Errors reach the caller; the SDK's own warnings (an unread
		// error body's checksum) would only clutter the command line.
		o.Logger = logging.Nop{}
		if cfg.HTTPClient != nil {
			o.HTTPClient = cfg.HTTPClient
		}
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
	})
	shown := endpoint
	if shown == "" {
		shown = "DynamoDB in " + awsCfg.Region
	}
	timeout := cfg.CallTimeout
	if timeout == 0 {
		timeout = DefaultCallTimeout
	}
	return &Cloud{db: timedClient{c: client, timeout: timeout}, tables: TablesFor(cfg.TablePrefix), endpoint: shown, region: awsCfg.Region, onRetry: cfg.onRetry}, nil
}

// StaticCredentials returns fixed credentials (tests and DynamoDB Local).
func StaticCredentials(key, secret string) aws.CredentialsProvider {
	return credentials.NewStaticCredentialsProvider(key, secret, "")
}

// Tables returns the names of the tables this connection uses.
func (c *Cloud) Tables() Tables { return c.tables }

// Endpoint says where requests go, for messages.
func (c *Cloud) Endpoint() string { return c.endpoint }

// retryTruncated retries a request whose response was cut short. Every
// request VoteDesk makes is a read or a conditional write, so sending it
// again is safe: a write that did commit fails its condition the second
// time, and sync recognises its own events when it next pulls.
func retryTruncated(err error) aws.Ternary {
	var de *smithy.DeserializationError
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &de) {
		return aws.TrueTernary
	}
	return aws.UnknownTernary
}

// toldRetryer is the SDK's retryer telling the cycle of each wait.
type toldRetryer struct {
	aws.RetryerV2
	tell func(time.Duration, string)
}

func (r toldRetryer) RetryDelay(attempt int, err error) (time.Duration, error) {
	d, derr := r.RetryerV2.RetryDelay(attempt, err)
	if derr == nil {
		why := app.SyncBusyFailing
		if isThrottled(err) {
			why = app.SyncBusyThrottled
		}
		r.tell(d, why)
	}
	return d, derr
}

// isThrottled reports whether err is DynamoDB asking to slow down.
func isThrottled(err error) bool {
	var ae smithy.APIError
	return errors.As(err, &ae) && throttleCodes[ae.ErrorCode()]
}

// throttleCodes are the error codes by which DynamoDB asks a client to slow
// down.
var throttleCodes = map[string]bool{"ProvisionedThroughputExceededException": true, "ThrottlingException": true,
	"RequestLimitExceeded": true, "Throttling": true}

// jitterBackoff is exponential backoff with full jitter: a random delay
// between 0 and min(max, base * 2^attempt).
type jitterBackoff struct{ base, max time.Duration }

func (b jitterBackoff) BackoffDelay(attempt int, _ error) (time.Duration, error) {
	ceil := b.base << min(attempt, 20)
	if ceil > b.max || ceil <= 0 {
		ceil = b.max
	}
	return time.Duration(rand.Int64N(int64(ceil) + 1)), nil
}
