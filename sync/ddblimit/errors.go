package ddblimit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"strings"
)

// The service's messages for throttling and transaction conflicts.
const (
	throttleMessage = "Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index so please try again shortly. If exceptions persist, check if you have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html"
	conflictMessage = "Transaction is ongoing for the item"
	errorPrefix     = "com.amazonaws.dynamodb.v20120810#"
)

// The error codes Transport answers with.
const (
	CodeProvisionedThroughputExceeded = "ProvisionedThroughputExceededException"
	CodeThrottling                    = "ThrottlingException"
	CodeTransactionCanceled           = "TransactionCanceledException"
	CodeTransactionConflict           = "TransactionConflictException"
)

// throttlingReason is DynamoDB's ThrottlingReason.
type throttlingReason struct {
	Reason   string `json:"reason"`
	Resource string `json:"resource"`
}

// cancellationReason is DynamoDB's CancellationReason.
type cancellationReason struct {
	Code    string `json:"Code"`
	Message string `json:"Message,omitempty"`
}

// tableARN is the ARN DynamoDB names a table (or table/T/index/I) by in
// throttling reasons.
func tableARN(table string) string {
	return "arn:aws:dynamodb:us-east-1:000000000000:table/" + table
}

// throttleResponse is the service's answer to a request over a partition's
// budget.
func throttleResponse(req *http.Request, code string, write bool, table string) *http.Response {
	reason := "TableReadKeyRangeThroughputExceeded"
	if write {
		reason = "TableWriteKeyRangeThroughputExceeded"
	}
	if strings.Contains(table, "/index/") {
		reason = strings.Replace(reason, "Table", "Index", 1)
	}
	return errorResponse(req, code, map[string]any{
		"message":           throttleMessage,
		"ThrottlingReasons": []throttlingReason{{Reason: reason, Resource: tableARN(table)}},
	})
}

// cancelResponse is the service's answer to a transaction it cancelled, with
// one reason per item in the request's order.
func cancelResponse(req *http.Request, reasons []cancellationReason) *http.Response {
	codes := make([]string, len(reasons))
	for i, r := range reasons {
		codes[i] = r.Code
	}
	return errorResponse(req, CodeTransactionCanceled, map[string]any{
		"Message":             fmt.Sprintf("Transaction cancelled, please refer cancellation reasons for specific reasons [%s]", strings.Join(codes, ", ")),
		"CancellationReasons": reasons,
	})
}

// errorResponse is an HTTP 400 answer in DynamoDB's JSON protocol: the code
// in x-amzn-ErrorType and __type, a request id, and the body's CRC32, which
// the SDK checks.
func errorResponse(req *http.Request, code string, fields map[string]any) *http.Response {
	fields["__type"] = errorPrefix + code
	body, _ := json.Marshal(fields)
	h := http.Header{}
	h.Set("Content-Type", "application/x-amz-json-1.0")
	h.Set("X-Amzn-Errortype", code)
	h.Set("X-Amzn-Requestid", fmt.Sprintf("DDBLIMIT%08X", crc32.ChecksumIEEE([]byte(req.Header.Get("Amz-Sdk-Invocation-Id")))))
	h.Set("X-Amz-Crc32", fmt.Sprint(crc32.ChecksumIEEE(body)))
	return &http.Response{StatusCode: http.StatusBadRequest, Status: "400 Bad Request", Header: h,
		Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)), Request: req,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
}
