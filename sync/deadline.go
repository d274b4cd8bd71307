package cloudsync

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// DefaultCallTimeout bounds one call to DynamoDB, its retries included: a
// cloud that stops answering ends the sync cycle with a message after this
// long, and the next cycle tries again.
const DefaultCallTimeout = 30 * time.Second

// timedClient is the DynamoDB client with a deadline on every call.
type timedClient struct {
	c       *dynamodb.Client
	timeout time.Duration
}

func (t timedClient) ctx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, t.timeout)
}

func (t timedClient) Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	ctx, cancel := t.ctx(ctx)
	defer cancel()
	return t.c.Query(ctx, in, opts...)
}

func (t timedClient) Scan(ctx context.Context, in *dynamodb.ScanInput, opts ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	ctx, cancel := t.ctx(ctx)
	defer cancel()
	return t.c.Scan(ctx, in, opts...)
}

func (t timedClient) GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	ctx, cancel := t.ctx(ctx)
	defer cancel()
	return t.c.GetItem(ctx, in, opts...)
}

func (t timedClient) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	ctx, cancel := t.ctx(ctx)
	defer cancel()
	return t.c.UpdateItem(ctx, in, opts...)
}

func (t timedClient) PutItem(ctx context.Context, in *dynamodb.PutItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	ctx, cancel := t.ctx(ctx)
	defer cancel()
	return t.c.PutItem(ctx, in, opts...)
}

func (t timedClient) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	ctx, cancel := t.ctx(ctx)
	defer cancel()
	return t.c.DeleteItem(ctx, in, opts...)
}

func (t timedClient) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	ctx, cancel := t.ctx(ctx)
	defer cancel()
	return t.c.TransactWriteItems(ctx, in, opts...)
}

func (t timedClient) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	ctx, cancel := t.ctx(ctx)
	defer cancel()
	return t.c.BatchWriteItem(ctx, in, opts...)
}

func (t timedClient) CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error) {
	ctx, cancel := t.ctx(ctx)
	defer cancel()
	return t.c.CreateTable(ctx, in, opts...)
}

func (t timedClient) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	ctx, cancel := t.ctx(ctx)
	defer cancel()
	return t.c.DescribeTable(ctx, in, opts...)
}

func (t timedClient) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	ctx, cancel := t.ctx(ctx)
	defer cancel()
	return t.c.BatchGetItem(ctx, in, opts...)
}
