package tally

import (
	"errors"
)

// WinnerElectionMode is RCTab's winnerElectionMode.
type WinnerElectionMode string

// The winner election modes, with RCTab's config values.
const (
	SingleWinnerMajority                    WinnerElectionMode = "singleWinnerMajority"
	MultiWinnerAllowOnlyOneWinnerPerRound   WinnerElectionMode = "multiWinnerAllowOnlyOneWinnerPerRound"
	MultiWinnerAllowMultipleWinnersPerRound WinnerElectionMode = "multiWinnerAllowMultipleWinnersPerRound"
	BottomsUp                               WinnerElectionMode = "bottomsUp"
	BottomsUpUsingPercentageThreshold       WinnerElectionMode = "bottomsUpUsingPercentageThreshold"
	MultiPassIRV                            WinnerElectionMode = "multiPassIrv"
)

// WinnerElectionModes lists the valid modes in documentation order.
var WinnerElectionModes = []WinnerElectionMode{
	SingleWinnerMajority, MultiWinnerAllowOnlyOneWinnerPerRound, MultiWinnerAllowMultipleWinnersPerRound,
	BottomsUp, BottomsUpUsingPercentageThreshold, MultiPassIRV,
}

// OvervoteRule is RCTab's overvoteRule: what a rank with several candidates does.
type OvervoteRule string

// The overvote rules, with RCTab's config values.
const (
	AlwaysSkipToNextRank        OvervoteRule = "alwaysSkipToNextRank"
	ExhaustImmediately          OvervoteRule = "exhaustImmediately"
	ExhaustIfMultipleContinuing OvervoteRule = "exhaustIfMultipleContinuing"
)

// OvervoteRules lists the valid overvote rules.
var OvervoteRules = []OvervoteRule{AlwaysSkipToNextRank, ExhaustImmediately, ExhaustIfMultipleContinuing}

// TiebreakMode is RCTab's tiebreakMode.
type TiebreakMode string

// The tie-break modes, with RCTab's config values. UsePermutationInConfig is
// the older name of UseCandidateOrder and behaves the same.
const (
	UseCandidateOrder             TiebreakMode = "useCandidateOrder"
	UsePermutationInConfig        TiebreakMode = "usePermutationInConfig"
	Random                        TiebreakMode = "random"
	PreviousRoundCountsThenRandom TiebreakMode = "previousRoundCountsThenRandom"
	GeneratePermutation           TiebreakMode = "generatePermutation"
	StopCountingAndAsk            TiebreakMode = "stopCountingAndAsk"
	PreviousRoundCountsThenAsk    TiebreakMode = "previousRoundCountsThenAsk"
)

// TiebreakModes lists the valid tie-break modes.
var TiebreakModes = []TiebreakMode{
	UseCandidateOrder, UsePermutationInConfig, Random, PreviousRoundCountsThenRandom,
	GeneratePermutation, StopCountingAndAsk, PreviousRoundCountsThenAsk,
}

// Unlimited is the MaxSkippedRanksAllowed value RCTab writes as "unlimited".
const Unlimited = -1

// MaxRankingsAll is the MaxRankingsAllowed value RCTab writes as "max": as many
// rankings as there are declared candidates.
const MaxRankingsAll = 0

// Rules are the counting rules of a ranked-choice count, named and valued as
// RCTab's contest config "rules" section. DefaultRules gives RCTab's defaults.
type Rules struct {
	WinnerElectionMode WinnerElectionMode
	NumberOfWinners    int
	// MultiSeatBottomsUpPercentageThreshold is the whole percentage (1-100)
	// every winner must reach in BottomsUpUsingPercentageThreshold mode.
	MultiSeatBottomsUpPercentageThreshold int
	NonIntegerWinningThreshold            bool
	HareQuota                             bool
	DoesFirstRoundDetermineThreshold      bool
	DecimalPlacesForVoteArithmetic        int
	MinimumVoteThreshold                  int64
	OvervoteRule                          OvervoteRule
	// MaxSkippedRanksAllowed is a count or Unlimited.
	MaxSkippedRanksAllowed int
	// MaxRankingsAllowed is a count or MaxRankingsAll.
	MaxRankingsAllowed               int
	ExhaustOnDuplicateCandidate      bool
	BatchElimination                 bool
	ContinueUntilTwoCandidatesRemain bool
	// StopTabulationEarlyAfterRound stops after that round; 0 means never.
	StopTabulationEarlyAfterRound int
	TiebreakMode                  TiebreakMode
	RandomSeed                    int64
}

// DefaultRules returns RCTab's suggested rules: one winner by majority,
// four decimal places, one skipped rank allowed, as many rankings as
// candidates, overvotes exhaust the ballot, ties go by candidate order.
func DefaultRules() Rules {
	return Rules{
		WinnerElectionMode:             SingleWinnerMajority,
		NumberOfWinners:                1,
		DecimalPlacesForVoteArithmetic: 4,
		OvervoteRule:                   ExhaustImmediately,
		MaxSkippedRanksAllowed:         1,
		MaxRankingsAllowed:             MaxRankingsAll,
		TiebreakMode:                   UseCandidateOrder,
	}
}

// NeedsRandomSeed reports whether the tie-break mode draws random numbers.
func (r Rules) NeedsRandomSeed() bool {
	return r.TiebreakMode == Random || r.TiebreakMode == PreviousRoundCountsThenRandom ||
		r.TiebreakMode == GeneratePermutation
}

// usesSurpluses reports whether winners' surpluses are transferred: in
// multi-seat contests other than bottoms-up.
func (r Rules) usesSurpluses() bool {
	return r.NumberOfWinners > 1 && r.WinnerElectionMode != BottomsUp &&
		r.WinnerElectionMode != BottomsUpUsingPercentageThreshold
}

// Validate checks the rules against RCTab's constraints for a contest with
// the given number of declared candidates.
func (r Rules) Validate(declared int) error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, errorf(""+format, a...)) }
	if !oneOf(r.WinnerElectionMode, WinnerElectionModes) {
		bad("winnerElectionMode %q is not one of %v", r.WinnerElectionMode, WinnerElectionModes)
	}
	if !oneOf(r.OvervoteRule, OvervoteRules) {
		bad("overvoteRule %q is not one of %v", r.OvervoteRule, OvervoteRules)
	}
	if !oneOf(r.TiebreakMode, TiebreakModes) {
		bad("tiebreakMode %q is not one of %v", r.TiebreakMode, TiebreakModes)
	}
	if r.DecimalPlacesForVoteArithmetic < 1 || r.DecimalPlacesForVoteArithmetic > 20 {
		bad("decimalPlacesForVoteArithmetic must be an integer from 1 to 20, not %d", r.DecimalPlacesForVoteArithmetic)
	}
	if r.MaxSkippedRanksAllowed < Unlimited {
		bad("maxSkippedRanksAllowed must be \"unlimited\" or an integer from 0, not %d", r.MaxSkippedRanksAllowed)
	}
	if r.MaxRankingsAllowed < 0 {
		bad("maxRankingsAllowed must be \"max\" or an integer from 1, not %d", r.MaxRankingsAllowed)
	}
	if r.MinimumVoteThreshold < 0 || r.MinimumVoteThreshold > 1000000 {
		bad("minimumVoteThreshold must be an integer from 0 to 1000000, not %d", r.MinimumVoteThreshold)
	}
	if r.StopTabulationEarlyAfterRound < 0 {
		bad("stopTabulationEarlyAfterRound must be a positive integer, not %d", r.StopTabulationEarlyAfterRound)
	}
	if r.NumberOfWinners < 0 || (declared > 0 && r.NumberOfWinners > declared) {
		bad("numberOfWinners must be an integer from 0 to %d, not %d", declared, r.NumberOfWinners)
	}
	errs = append(errs, r.validateModes()...)
	return errors.Join(errs...)
}

// validateModes checks the combinations of mode, seats and options that
// RCTab refuses.
func (r Rules) validateModes() []error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, errorf(""+format, a...)) }
	mode := r.WinnerElectionMode
	pct := mode == BottomsUpUsingPercentageThreshold
	switch {
	case pct && r.NumberOfWinners != 0:
		bad("numberOfWinners must be 0 when winnerElectionMode is %s", mode)
	case pct && (r.MultiSeatBottomsUpPercentageThreshold < 1 || r.MultiSeatBottomsUpPercentageThreshold > 100):
		bad("multiSeatBottomsUpPercentageThreshold must be an integer from 1 to 100 when winnerElectionMode is %s", mode)
	case !pct && r.NumberOfWinners == 0:
		bad("numberOfWinners can be 0 only when winnerElectionMode is %s", BottomsUpUsingPercentageThreshold)
	case r.NumberOfWinners == 1 && mode != SingleWinnerMajority:
		bad("winnerElectionMode %s needs more than one winner", mode)
	case r.NumberOfWinners > 1 && mode == SingleWinnerMajority:
		bad("winnerElectionMode %s elects one winner, not %d", mode, r.NumberOfWinners)
	}
	if r.NumberOfWinners > 1 && mode != MultiPassIRV {
		if r.ContinueUntilTwoCandidatesRemain {
			bad("continueUntilTwoCandidatesRemain can't be true in a multi-seat contest unless winnerElectionMode is %s", MultiPassIRV)
		}
		if r.BatchElimination {
			bad("batchElimination can't be true in a multi-seat contest unless winnerElectionMode is %s", MultiPassIRV)
		}
	}
	if pct && r.BatchElimination {
		bad("batchElimination can't be true when winnerElectionMode is %s", mode)
	}
	stv := mode == MultiWinnerAllowOnlyOneWinnerPerRound || mode == MultiWinnerAllowMultipleWinnersPerRound
	if !stv && r.NonIntegerWinningThreshold {
		bad("nonIntegerWinningThreshold can't be true when winnerElectionMode is %s", mode)
	}
	if !stv && r.HareQuota {
		bad("hareQuota can't be true when winnerElectionMode is %s", mode)
	}
	if r.NonIntegerWinningThreshold && r.HareQuota {
		bad("nonIntegerWinningThreshold and hareQuota can't both be true")
	}
	return errs
}

func oneOf[T comparable](v T, set []T) bool {
	for _, s := range set {
		if s == v {
			return true
		}
	}
	return false
}

// Words says what the mode does, in plain words, for people choosing it.
func (m WinnerElectionMode) Words() string {
	switch m {
	case SingleWinnerMajority:
		return "One winner, by a majority of the ballots still counting"
	case MultiWinnerAllowOnlyOneWinnerPerRound:
		return "Several winners (STV), one elected per round"
	case MultiWinnerAllowMultipleWinnersPerRound:
		return "Several winners (STV), all who reach the threshold in a round"
	case BottomsUp:
		return "Several winners: the last is eliminated until the seats are filled"
	case BottomsUpUsingPercentageThreshold:
		return "Several winners: the last is eliminated until all left reach a percentage"
	case MultiPassIRV:
		return "Several winners by repeated one-winner counts (sequential IRV)"
	}
	return string(m)
}

// Words says what the rule does with a rank that marks several candidates.
func (r OvervoteRule) Words() string {
	switch r {
	case AlwaysSkipToNextRank:
		return "The rank is skipped; the ballot goes on to its next rank"
	case ExhaustImmediately:
		return "The ballot is exhausted"
	case ExhaustIfMultipleContinuing:
		return "The ballot is exhausted if more than one of them is still in the count"
	}
	return string(r)
}

// Words says how the mode breaks a tie.
func (m TiebreakMode) Words() string {
	switch m {
	case UseCandidateOrder:
		return "By the order the candidates are listed in"
	case UsePermutationInConfig:
		return "By the order the candidates are listed in (older name)"
	case Random:
		return "At random, drawn from the random seed"
	case PreviousRoundCountsThenRandom:
		return "By the previous round's counts, then at random"
	case GeneratePermutation:
		return "By an order of candidates drawn once from the random seed"
	case StopCountingAndAsk:
		return "The count stops and asks an official"
	case PreviousRoundCountsThenAsk:
		return "By the previous round's counts, then the count asks an official"
	}
	return string(m)
}
