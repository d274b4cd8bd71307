package assets

import (
	_ "embed"

	"fyne.io/fyne/v2"
)

//go:embed icon.png
var iconPNG []byte

// Icon is the VoteDesk application icon (512x512 PNG; icon.svg is its source).
var Icon = fyne.NewStaticResource("votedesk.png", iconPNG)
