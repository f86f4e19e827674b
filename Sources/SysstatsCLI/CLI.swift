// The sysstats command-line interface.
