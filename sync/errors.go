package cloudsync

import (
	"context"
	"errors"
	"fmt"
	"net"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/smithy-go"

	"votedesk/app"
)

// classify turns an AWS error into a domain error whose message tells the
// user what to do: an unreachable endpoint, rejected credentials, missing
// tables and exhausted retries each say so, with the cause kept for logs.
func (c *Cloud) classify(ctx context.Context, op string, err error) error {
	if err == nil {
		return nil
	}
	var de *app.Error
	if errors.As(err, &de) {
		return fmt.Errorf("cloudsync: %s: %w", op, err)
	}
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		return &app.Error{Code: app.CodeUnavailable, Message: fmt.Sprintf("DynamoDB at %s did not answer within %s (%s); the sync stopped with nothing lost and will be tried again",
			c.endpoint, c.db.timeout, op), Err: fmt.Errorf("%s: %w", op, err)}
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &app.Error{Code: app.CodeUnavailable, Message: "sync was cancelled", Err: fmt.Errorf("%s: %w", op, err)}
	}
	msg := ""
	var ae smithy.APIError
	var netErr net.Error
	var opErr *net.OpError
	var credErr *credentialsError
	switch {
	case errors.As(err, &ae) && credentialCodes[ae.ErrorCode()]:
		msg = fmt.Sprintf("%s rejected the AWS credentials (%s); check AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY or AWS_PROFILE, and that they may use the tables %s and %s",
			c.endpoint, ae.ErrorCode(), c.tables.Data, c.tables.Log)
	case errors.As(err, &ae) && ae.ErrorCode() == "ResourceNotFoundException":
		msg = fmt.Sprintf("the tables %s and %s do not exist at %s; run `votedesk cloud init` (with the same --endpoint and --table-prefix) first",
			c.tables.Data, c.tables.Log, c.endpoint)
	case errors.As(err, &credErr):
		msg = "no AWS credentials found; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE for a profile in ~/.aws"
	case errors.As(err, &opErr) && opErr.Op == "dial", errors.As(err, &netErr):
		msg = fmt.Sprintf("cannot reach DynamoDB at %s; check the network, and --endpoint or AWS_ENDPOINT_URL_DYNAMODB", c.endpoint)
	case isRetryExhausted(err):
		msg = fmt.Sprintf("DynamoDB at %s kept failing or throttling after several retries; try again later", c.endpoint)
	default:
		msg = fmt.Sprintf("DynamoDB at %s refused the request", c.endpoint)
	}
	return &app.Error{Code: app.CodeUnavailable, Message: msg, Err: fmt.Errorf("%s: %w", op, err)}
}

// credentialCodes are the error codes of bad or unauthorised credentials.
var credentialCodes = map[string]bool{
	"UnrecognizedClientException": true, "InvalidSignatureException": true, "AccessDeniedException": true,
	"ExpiredTokenException": true, "MissingAuthenticationToken": true, "MissingAuthenticationTokenException": true,
	"IncompleteSignatureException": true, "InvalidClientTokenId": true, "SignatureDoesNotMatch": true,
}

// markedCredentials is the credential chain the client uses, its failures
// marked with their own type: the SDK wraps them in plain text on their way
// up ("get identity: get credentials: ..."), so only a type put on them at
// the source tells a sync without credentials from any other failure.
type markedCredentials struct{ aws.CredentialsProvider }

// credentialsError is a failure to find AWS credentials.
type credentialsError struct{ err error }

func (e *credentialsError) Error() string { return "no AWS credentials: " + e.err.Error() }
func (e *credentialsError) Unwrap() error { return e.err }

// Retrieve is the chain's, its failure marked.
func (m markedCredentials) Retrieve(ctx context.Context) (aws.Credentials, error) {
	c, err := m.CredentialsProvider.Retrieve(ctx)
	if err != nil {
		return c, &credentialsError{err}
	}
	return c, nil
}

func isRetryExhausted(err error) bool {
	var me *retry.MaxAttemptsError
	return errors.As(err, &me)
}

// configError explains a failure to load the AWS configuration.
func configError(err error) error {
	return &app.Error{Code: app.CodeUnavailable, Message: "cannot load the AWS configuration: " + err.Error(), Err: err}
}
