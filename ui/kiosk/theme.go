package kiosk

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// sizeNameTarget is the smallest width and height of anything a voter can
// press.
const sizeNameTarget fyne.ThemeSizeName = "votedesk-kiosk-target"

// colorNameOutline is the colour of the outline around a control that can
// be pressed: white in high contrast, none otherwise.
const colorNameOutline fyne.ThemeColorName = "votedesk-kiosk-outline"

// TextSizes is how many text sizes a voter can choose from (VVSG 2.0 7.1-G
// asks for at least four).
const TextSizes = 4

// Text, heading and target sizes of each text size, smallest first. The
// body text is about 4.8, 6.3, 8.5 and 11 mm tall at 96 dpi; every target
// is above the 44 units of WCAG 2.5.5.
var (
	textSizes   = [TextSizes]float32{18, 24, 32, 42}
	targetSizes = [TextSizes]float32{48, 56, 64, 76}
)

// kioskTheme is the kiosk's look: one of TextSizes text sizes (size, from 0)
// in Fyne's light colours made stronger, or in high contrast: white and
// yellow on black, every text and control at least 10:1 against what is
// behind it, buttons outlined.
type kioskTheme struct {
	size     int
	contrast bool
}

var _ fyne.Theme = kioskTheme{}

// High-contrast colours.
var (
	hcBlack    = color.NRGBA{A: 0xff}
	hcWhite    = color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
	hcYellow   = color.NRGBA{R: 0xff, G: 0xd5, A: 0xff}
	hcDisabled = color.NRGBA{R: 0xb8, G: 0xb8, B: 0xb8, A: 0xff}
)

// focusRingLight is the primary colour of the light theme, which the focus
// ring is drawn in (in high contrast: yellow).
var focusRingLight = color.NRGBA{R: 0x0b, G: 0x57, B: 0xd0, A: 0xff}

func (t kioskTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	if !t.contrast {
		switch n {
		case theme.ColorNameWarning:
			return color.NRGBA{R: 0xa0, G: 0x40, A: 0xff} // 6.6:1 on white
		case theme.ColorNameError:
			return color.NRGBA{R: 0xc6, G: 0x28, B: 0x28, A: 0xff} // 5.6:1
		case theme.ColorNameSuccess:
			return color.NRGBA{R: 0x1b, G: 0x5e, B: 0x20, A: 0xff} // 7.9:1
		case theme.ColorNamePrimary:
			return focusRingLight // 7.1:1 with white text
		case theme.ColorNameButton:
			return color.NRGBA{R: 0xd7, G: 0xde, B: 0xe8, A: 0xff} // a filled button: 14.9:1 with black text
		case theme.ColorNameDisabledButton:
			return color.NRGBA{R: 0xf7, G: 0xf7, B: 0xf7, A: 0xff} // flat, nearly the page
		case theme.ColorNameDisabled:
			return color.NRGBA{R: 0x6e, G: 0x6e, B: 0x6e, A: 0xff} // 4.8:1 on a disabled button
		case theme.ColorNameForeground:
			return hcBlack
		case colorNameOutline:
			return color.Transparent
		}
		return theme.DefaultTheme().Color(n, theme.VariantLight)
	}
	switch n {
	case theme.ColorNameBackground, theme.ColorNameInputBackground, theme.ColorNameHeaderBackground,
		theme.ColorNameButton, theme.ColorNameDisabledButton,
		theme.ColorNameForegroundOnPrimary, theme.ColorNameForegroundOnWarning, theme.ColorNameForegroundOnSuccess:
		return hcBlack
	case theme.ColorNameForeground, theme.ColorNameInputBorder, theme.ColorNameSeparator, theme.ColorNameForegroundOnError,
		colorNameOutline:
		return hcWhite
	case theme.ColorNamePrimary, theme.ColorNameWarning, theme.ColorNameHyperlink:
		return hcYellow // 14.6:1 on black
	case theme.ColorNameDisabled:
		return hcDisabled // a control that does nothing now: 10.6:1, and no outline
	case theme.ColorNamePlaceHolder:
		return color.NRGBA{R: 0xc8, G: 0xc8, B: 0xc8, A: 0xff} // 12.9:1
	case theme.ColorNameError:
		return color.NRGBA{R: 0xff, G: 0x9e, B: 0x9e, A: 0xff} // 11.3:1
	case theme.ColorNameSuccess:
		return color.NRGBA{R: 0x66, G: 0xff, B: 0x66, A: 0xff} // 16:1
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

// Size scales the text, headings, icons and targets with the text size;
// padding grows more slowly.
func (t kioskTheme) Size(n fyne.ThemeSizeName) float32 {
	i := min(max(t.size, 0), TextSizes-1)
	text := textSizes[i]
	switch n {
	case sizeNameTarget:
		return targetSizes[i]
	case theme.SizeNameText:
		return text
	case theme.SizeNameHeadingText:
		return text * 5 / 3
	case theme.SizeNameSubHeadingText:
		return text * 11 / 9
	case theme.SizeNameCaptionText:
		return text * 5 / 6
	case theme.SizeNameInlineIcon:
		return text * 4 / 3
	case theme.SizeNamePadding:
		return 6 + float32(i)
	case theme.SizeNameInnerPadding:
		return 10 + float32(i)
	case theme.SizeNameInputBorder:
		return 2 + float32(i/2)
	}
	return theme.DefaultTheme().Size(n)
}
