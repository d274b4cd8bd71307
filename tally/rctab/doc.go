// Package rctab runs a contest from an RCTab contest config: it loads the
// config (every field that matters for counting, with errors that name the
// field), reads the cast vote record files through package cvr, counts with
// package tally and writes RCTab's reports through package report.
//
// RunConfig is the whole job for the command line; Load, Config.Rules,
// Config.Contest, Config.ReadBallots and Config.Count are its steps for a
// caller that wants to show progress or the result before writing.
// ParseRule turns "name=value" overrides, named as in the config's rules
// section, into settings.
//
// Files written (all into one folder, renamed into place when complete):
// detailed_report.json, detailed_report.csv and summary_report.csv (with
// _1, _2, ... per pass for multiPassIrv); with tabulateByPrecinct the same
// three per precinct, named <precinct>_precinct_..., and with
// tabulateByBatch per batch, named <batch>_batch_...; audit.log; and for
// each file a .sha256 beside it in sha256sum's format. Not written: the CDF
// JSON export of generateCdfJson.
package rctab
