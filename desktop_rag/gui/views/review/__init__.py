"""The Review view (issue 39): grade counts and signals, spot check, measuring the library."""
