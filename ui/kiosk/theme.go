package kiosk

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// sizeNameTarget is the smallest width and height of anything a voter can
// press.
const sizeNameTarget fyne.ThemeSizeName = "votedesk-kiosk-target"

// kioskTheme is the kiosk's look: Fyne's light theme with larger text and
// larger targets (48 units, above the 44 of WCAG 2.5.5), or, switched to
// large, white-on-black high contrast with text about half as large again and
// 64-unit targets. Every text colour it uses has a contrast of at least 4.5:1
// (WCAG AA) against its background.
type kioskTheme struct {
	large bool
}

var _ fyne.Theme = kioskTheme{}

// High-contrast colours.
var (
	hcBlack    = color.NRGBA{A: 0xff}
	hcWhite    = color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
	hcYellow   = color.NRGBA{R: 0xff, G: 0xd5, A: 0xff}
	hcGrey     = color.NRGBA{R: 0x33, G: 0x33, B: 0x33, A: 0xff}
	hcDisabled = color.NRGBA{R: 0x9e, G: 0x9e, B: 0x9e, A: 0xff}
)

// Colour of the focus ring drawn around the focused control.
var (
	focusRingLight = color.NRGBA{R: 0x0b, G: 0x57, B: 0xd0, A: 0xff}
	focusRingHigh  = hcYellow
)

func (t kioskTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	if !t.large {
		switch n {
		case theme.ColorNameWarning:
			return color.NRGBA{R: 0xa0, G: 0x40, A: 0xff} // 6.6:1 on white
		case theme.ColorNameError:
			return color.NRGBA{R: 0xc6, G: 0x28, B: 0x28, A: 0xff} // 5.6:1
		case theme.ColorNameSuccess:
			return color.NRGBA{R: 0x1b, G: 0x5e, B: 0x20, A: 0xff} // 7.9:1
		case theme.ColorNamePrimary:
			return focusRingLight // 7.1:1 with white text
		case theme.ColorNameDisabled:
			return color.NRGBA{R: 0x5c, G: 0x5c, B: 0x5c, A: 0xff} // 5.3:1 on a disabled button
		}
		return theme.DefaultTheme().Color(n, theme.VariantLight)
	}
	switch n {
	case theme.ColorNameBackground, theme.ColorNameInputBackground, theme.ColorNameHeaderBackground,
		theme.ColorNameForegroundOnPrimary, theme.ColorNameForegroundOnWarning, theme.ColorNameForegroundOnSuccess:
		return hcBlack
	case theme.ColorNameForeground, theme.ColorNameInputBorder, theme.ColorNameSeparator, theme.ColorNameForegroundOnError:
		return hcWhite
	case theme.ColorNamePrimary, theme.ColorNameWarning, theme.ColorNameHyperlink:
		return hcYellow
	case theme.ColorNameButton:
		return hcGrey
	case theme.ColorNameDisabledButton:
		return color.NRGBA{R: 0x1a, G: 0x1a, B: 0x1a, A: 0xff}
	case theme.ColorNameDisabled, theme.ColorNamePlaceHolder:
		return hcDisabled // 7.7:1 on black, 6.5:1 on a disabled button
	case theme.ColorNameError:
		return color.NRGBA{R: 0xd3, G: 0x2f, B: 0x2f, A: 0xff}
	case theme.ColorNameSuccess:
		return color.NRGBA{R: 0x66, G: 0xff, B: 0x66, A: 0xff}
	case theme.ColorNameFocus, theme.ColorNameSelection:
		return color.NRGBA{R: 0xff, G: 0xd5, A: 0x50}
	case theme.ColorNameHover:
		return color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0x30}
	case theme.ColorNamePressed:
		return color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0x50}
	case theme.ColorNameShadow:
		return color.Transparent
	case theme.ColorNameMenuBackground, theme.ColorNameOverlayBackground:
		return color.NRGBA{R: 0x11, G: 0x11, B: 0x11, A: 0xff}
	}
	return theme.DefaultTheme().Color(n, theme.VariantDark)
}

func (t kioskTheme) Font(s fyne.TextStyle) fyne.Resource { return theme.DefaultTheme().Font(s) }

func (t kioskTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return theme.DefaultTheme().Icon(n) }

func (t kioskTheme) Size(n fyne.ThemeSizeName) float32 {
	pick := func(normal, large float32) float32 {
		if t.large {
			return large
		}
		return normal
	}
	switch n {
	case sizeNameTarget:
		return pick(48, 64)
	case theme.SizeNameText:
		return pick(18, 28)
	case theme.SizeNameHeadingText:
		return pick(30, 42)
	case theme.SizeNameSubHeadingText:
		return pick(22, 34)
	case theme.SizeNameCaptionText:
		return pick(15, 22)
	case theme.SizeNameInlineIcon:
		return pick(24, 34)
	case theme.SizeNamePadding:
		return pick(6, 8)
	case theme.SizeNameInnerPadding:
		return pick(10, 12)
	case theme.SizeNameInputBorder:
		return pick(2, 3)
	}
	return theme.DefaultTheme().Size(n)
}

// focusRing is the colour of the ring around the focused control.
func (t kioskTheme) focusRing() color.Color {
	if t.large {
		return focusRingHigh
	}
	return focusRingLight
}
