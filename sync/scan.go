package cloudsync

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"votedesk/app"
)

// ProjectionItems reads every item of the cloud projection with consistent
// reads, for tools and tests that compare it with a device's projection.
func (c *Cloud) ProjectionItems(ctx context.Context) ([]app.Item, error) {
	var out []app.Item
	var start map[string]types.AttributeValue
	for {
		page, err := c.db.Scan(ctx, &dynamodb.ScanInput{
			TableName: aws.String(c.tables.Data), ConsistentRead: aws.Bool(true), ExclusiveStartKey: start,
		})
		if err != nil {
			return nil, c.classify(ctx, "read the cloud projection", err)
		}
		for _, m := range page.Items {
			it, err := FromAttributeMap(m)
			if err != nil {
				return nil, err
			}
			out = append(out, it)
		}
		if page.LastEvaluatedKey == nil {
			return out, nil
		}
		start = page.LastEvaluatedKey
	}
}
