# sysstats: aliases for the scripts in install/, bench/ and Fuzz/. See README.md.
.PHONY: all run test check fuzz bench bench-bar package clean

all:
	swift build -c release

# Installs what is missing, builds, runs the sampler and a live status line (Ctrl-C stops both).
run:
	install/run.sh

# Installs what is missing, builds the release programs (the end-to-end tests and
# memory budgets run them), runs every test.
test:
	install/test.sh

# The edit-test loop: the debug build and the unit and in-process tests only.
check:
	install/test.sh --quick

# Every fuzz target in Fuzz/ for FUZZ_SECONDS seconds each (docs/reliability.md);
# fails, naming the saved input, when a target crashes or breaks a property.
FUZZ_SECONDS ?= 300
fuzz:
	Fuzz/run.sh --seconds $(FUZZ_SECONDS)

bench:
	bench/run.sh

# The renderer (sysstats-bar) beside i3status: latency, CPU, syscalls, peak RSS.
bench-bar:
	bench/bar.sh

# The .deb and the release tarball in dist/ (docs/packaging.md).
package:
	install/package.sh

clean:
	swift package clean
	rm -rf bench/out
