// Package rctab runs a contest from an RCTab contest config: it loads the
// config (every field that matters for counting, with errors that name the
// field), reads the cast vote record files through package cvr, counts with
// package tally and writes RCTab's reports through package report.
//
// RunConfig is the whole job for the command line; Load, Config.Rules,
// Config.Contest, Config.ReadBallots and Config.Count are its steps for a
// caller that wants to show progress or the result before writing.
// Rules named as in the config's rules section are parsed by
// tally.ParseRule (the domain reads them too, and needs no file I/O).
//
// Files written (all into one folder, renamed into place when complete):
// detailed_report.json, detailed_report.csv and summary_report.csv (with
// _1, _2, ... per pass for multiPassIrv); with tabulateByPrecinct the same
// three per precinct, named <precinct>_precinct_..., and with
// tabulateByBatch per batch, named <batch>_batch_...; audit.log; and for
// each file a .sha256 beside it in sha256sum's format. With generateCdfJson,
// cvr_cdf.json (cvr_cdf_N.json per pass): every cast vote record as a NIST
// CDF CVR with its original snapshot and one per round saying where its
// vote counted (the part each winner it helped elect kept, as a fraction),
// its selections named by the strings the CVR files wrote, as RCTab does.
//
// Conversions, without counting: Config.WriteCVRCSV (RCTab's CVR-to-CSV)
// and Config.WriteCDFJSON (RCTab's convert to CDF).
package rctab
