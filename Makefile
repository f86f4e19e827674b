# sysstats: `make run` to try it, `make test` to check it. See README.md.
.PHONY: all run test bench clean

all:
	swift build -c release

# Installs what is missing, builds, runs the sampler and a live status line (Ctrl-C stops both).
run:
	install/run.sh

# The end-to-end tests (memory budgets) run the release binaries, so build those first.
test:
	install/deps.sh
	swift build -c release
	swift test

bench:
	bench/run.sh

clean:
	swift package clean
	rm -rf bench/out
