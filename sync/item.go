package cloudsync

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"votedesk/app"
)

// ToAttributeMap converts a projection item to DynamoDB's attribute-value
// map. Every app.Value kind is one DynamoDB type, so nothing is lost.
func ToAttributeMap(it app.Item) map[string]types.AttributeValue {
	m := make(map[string]types.AttributeValue, len(it))
	for _, a := range it {
		m[a.Name] = toAttr(a.Value)
	}
	return m
}

func toAttr(v app.Value) types.AttributeValue {
	switch v.Kind {
	case app.KindS:
		return &types.AttributeValueMemberS{Value: v.S}
	case app.KindN:
		return &types.AttributeValueMemberN{Value: v.S}
	case app.KindB:
		return &types.AttributeValueMemberB{Value: []byte(v.S)}
	case app.KindBool:
		return &types.AttributeValueMemberBOOL{Value: v.Bool}
	case app.KindL:
		l := make([]types.AttributeValue, len(v.L))
		for i, e := range v.L {
			l[i] = toAttr(e)
		}
		return &types.AttributeValueMemberL{Value: l}
	case app.KindM:
		m := make(map[string]types.AttributeValue, len(v.M))
		for k, e := range v.M {
			m[k] = toAttr(e)
		}
		return &types.AttributeValueMemberM{Value: m}
	case app.KindSS, app.KindNS:
		s := make([]string, len(v.L))
		for i, e := range v.L {
			s[i] = e.S
		}
		if v.Kind == app.KindSS {
			return &types.AttributeValueMemberSS{Value: s}
		}
		return &types.AttributeValueMemberNS{Value: s}
	case app.KindBS:
		bs := make([][]byte, len(v.L))
		for i, e := range v.L {
			bs[i] = []byte(e.S)
		}
		return &types.AttributeValueMemberBS{Value: bs}
	default:
		return &types.AttributeValueMemberNULL{Value: true}
	}
}

// FromAttributeMap converts a DynamoDB item to a projection item.
func FromAttributeMap(m map[string]types.AttributeValue) (app.Item, error) {
	it := make(app.Item, 0, len(m))
	for name, av := range m {
		v, err := fromAttr(av)
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", name, err)
		}
		it.Set(name, v)
	}
	return it, nil
}

func fromAttr(av types.AttributeValue) (app.Value, error) {
	switch a := av.(type) {
	case *types.AttributeValueMemberS:
		return app.Value{Kind: app.KindS, S: a.Value}, nil
	case *types.AttributeValueMemberN:
		return app.Value{Kind: app.KindN, S: a.Value}, nil
	case *types.AttributeValueMemberB:
		return app.Value{Kind: app.KindB, S: string(a.Value)}, nil
	case *types.AttributeValueMemberBOOL:
		return app.Value{Kind: app.KindBool, Bool: a.Value}, nil
	case *types.AttributeValueMemberNULL:
		return app.Value{Kind: app.KindNull}, nil
	case *types.AttributeValueMemberL:
		l := make([]app.Value, len(a.Value))
		for i, e := range a.Value {
			v, err := fromAttr(e)
			if err != nil {
				return app.Value{}, err
			}
			l[i] = v
		}
		return app.Value{Kind: app.KindL, L: l}, nil
	case *types.AttributeValueMemberM:
		m := make(map[string]app.Value, len(a.Value))
		for k, e := range a.Value {
			v, err := fromAttr(e)
			if err != nil {
				return app.Value{}, err
			}
			m[k] = v
		}
		return app.Value{Kind: app.KindM, M: m}, nil
	case *types.AttributeValueMemberSS:
		return memberSet(app.KindSS, app.KindS, a.Value), nil
	case *types.AttributeValueMemberNS:
		return memberSet(app.KindNS, app.KindN, a.Value), nil
	case *types.AttributeValueMemberBS:
		l := make([]app.Value, len(a.Value))
		for i, b := range a.Value {
			l[i] = app.Value{Kind: app.KindB, S: string(b)}
		}
		return app.Value{Kind: app.KindBS, L: l}, nil
	default:
		return app.Value{}, fmt.Errorf("unknown attribute value type %T", av)
	}
}

func memberSet(set, member app.Kind, s []string) app.Value {
	l := make([]app.Value, len(s))
	for i, e := range s {
		l[i] = app.Value{Kind: member, S: e}
	}
	return app.Value{Kind: set, L: l}
}
