# sysstats: aliases for the scripts in install/ and bench/. See README.md.
.PHONY: all run test bench bench-bar clean

all:
	swift build -c release

# Installs what is missing, builds, runs the sampler and a live status line (Ctrl-C stops both).
run:
	install/run.sh

# Installs what is missing, builds the release programs (the end-to-end tests and
# memory budgets run them), runs every test.
test:
	install/test.sh

bench:
	bench/run.sh

# The renderer (sysstats-bar) beside i3status: latency, CPU, syscalls, peak RSS.
bench-bar:
	bench/bar.sh

clean:
	swift package clean
	rm -rf bench/out
