package cloudsync

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Index and attribute names of the cloud tables.
const (
	gsi1Name = "GSI-1"
	attrPK   = "PK"
	attrSK   = "SK"
)

// InitTables creates the two tables if they are missing (on-demand capacity,
// GSI-1 on the projection) and waits until both are ACTIVE. It returns the
// names of the tables it created.
func (c *Cloud) InitTables(ctx context.Context) (created []string, err error) {
	for _, spec := range []struct {
		name string
		gsi  bool
	}{{c.tables.Data, true}, {c.tables.Log, false}} {
		made, err := c.createTable(ctx, spec.name, spec.gsi)
		if err != nil {
			return created, c.classify(ctx, "create table "+spec.name, err)
		}
		if made {
			created = append(created, spec.name)
		}
	}
	for _, name := range []string{c.tables.Data, c.tables.Log} {
		w := dynamodb.NewTableExistsWaiter(c.db, func(o *dynamodb.TableExistsWaiterOptions) {
			o.MinDelay, o.MaxDelay = 200*time.Millisecond, 5*time.Second
		})
		if err := w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, 5*time.Minute); err != nil {
			return created, c.classify(ctx, "wait for table "+name, err)
		}
	}
	return created, nil
}

// createTable creates one table; made is false when it already existed.
func (c *Cloud) createTable(ctx context.Context, name string, gsi bool) (made bool, err error) {
	in := &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String(attrPK), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String(attrSK), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String(attrPK), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(attrSK), KeyType: types.KeyTypeRange},
		},
	}
	if gsi {
		in.AttributeDefinitions = append(in.AttributeDefinitions,
			types.AttributeDefinition{AttributeName: aws.String("GSI1PK"), AttributeType: types.ScalarAttributeTypeS},
			types.AttributeDefinition{AttributeName: aws.String("GSI1SK"), AttributeType: types.ScalarAttributeTypeS})
		in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{
			IndexName: aws.String(gsi1Name),
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String("GSI1PK"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("GSI1SK"), KeyType: types.KeyTypeRange},
			},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}}
	}
	_, err = c.db.CreateTable(ctx, in)
	var inUse *types.ResourceInUseException
	if errors.As(err, &inUse) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("%w", err)
	}
	return true, nil
}
