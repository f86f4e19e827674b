# sysstats: aliases for the scripts in install/ and bench/. See README.md.
.PHONY: all run test bench clean

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

clean:
	swift package clean
	rm -rf bench/out
