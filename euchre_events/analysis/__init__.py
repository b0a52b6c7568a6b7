"""Analysis of recorded deals (issue 21): what every decision was worth.
Pure: no I/O.  See docs/analysis.md."""
