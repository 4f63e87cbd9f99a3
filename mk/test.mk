# SPDX-License-Identifier: GPL-3.0-or-later
# Tests, benchmarks and the other builds of the same sources (sanitizer,
# portable, profile-guided).

# Every suite runs even when one fails; the summary line counts them. A suite
# that hangs (a search that never stops) is ended after SUITE_TIMEOUT seconds
# and counted as failed: the tests assert behaviour, never speed, so the
# bound only turns a hang into a failure. TEST_JOBS suites run at a time
# (the number of processors by default), each one's output printed whole
# when it ends.
SUITE_TIMEOUT ?= 900
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
# The longest suites start first, so that the others fill the other jobs
# around them instead of one long suite ending alone after the rest (the
# endgame databases' suite is over half of make sanitize's time).
LONG_SUITES := $(BUILD)/tests/test_egdb tests/test_kernels.sh $(BUILD)/tests/test_search $(BUILD)/tests/test_match
SUITES := $(filter $(LONG_SUITES),$(TESTS) $(SHELL_TESTS)) $(filter-out $(LONG_SUITES),$(TESTS) $(SHELL_TESTS))
SUITE_RESULTS := $(BUILD)/suite-results
test: deps
	@$(MAKE) --no-print-directory check-tests

check-tests: $(PROGRAMS) $(TESTS) $(HELPERS) $(CB_SO)
	@rm -rf $(SUITE_RESULTS) && mkdir -p $(SUITE_RESULTS)
	@$(MAKE) --no-print-directory --output-sync=target -k -j$(TEST_JOBS) $(SUITES:%=run-suite/%) || true
	@pass=$$(ls $(SUITE_RESULTS) | grep -c '\.pass$$'); fail=$$(ls $(SUITE_RESULTS) | grep -c '\.fail$$'); \
	for f in $(SUITE_RESULTS)/*.fail; do [ -e "$$f" ] && cat "$$f"; done; \
	echo "suites: $$pass passed, $$fail failed"; \
	test $$fail -eq 0 && test $$((pass + fail)) -eq $(words $(SUITES))

# One suite: its output, then a .pass or .fail mark in $(SUITE_RESULTS).
run-suite/%: FORCE
	@echo "== $*"; started=$$(date +%s); \
	case $* in *.sh) run="sh $*" ;; *) run=$* ;; esac; \
	mark=$(SUITE_RESULTS)/$$(echo $* | tr / _); \
	if POOLSHARK_BIN=$(CURDIR)/$(BUILD)/poolshark HELPER_DIR=$(CURDIR)/$(BUILD)/tests/helpers \
	   TOOL_DIR=$(CURDIR)/$(BUILD)/bin CB_LIBRARY=$(CURDIR)/$(CB_SO) timeout $(SUITE_TIMEOUT) $$run; \
	then touch $$mark.pass; echo "-- $*: $$(($$(date +%s) - started)) s"; \
	else status=$$?; \
		if [ $$status -eq 124 ]; then echo "FAILED: $* (no end after $(SUITE_TIMEOUT) s)" > $$mark.fail; \
		else echo "FAILED: $*" > $$mark.fail; fi; cat $$mark.fail; fi

sanitize: deps
	@$(MAKE) --no-print-directory BUILD=build-san OPT="-O1 -g -fno-omit-frame-pointer" \
		EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all" check-tests

perft: deps $(BUILD)/poolshark
	./$(BUILD)/poolshark perft 12
	./$(BUILD)/poolshark perft --variant russian --hash 256 10 | tee /dev/stderr | grep -q '^depth=10 leaves=22444032 '
	./$(BUILD)/poolshark perft --variant brazilian --hash 256 10 | tee /dev/stderr | grep -q '^depth=10 leaves=21560022 '
	./$(BUILD)/poolshark perft --variant english --hash 256 10 | tee /dev/stderr | grep -q '^depth=10 leaves=18391564 '
	./$(BUILD)/poolshark perft --variant italian --hash 256 10 | tee /dev/stderr | grep -q '^depth=10 leaves=17761384 '
	./$(BUILD)/poolshark perft --variant spanish --hash 256 10 | tee /dev/stderr | grep -q '^depth=10 leaves=17743464 '
	./$(BUILD)/poolshark perft --variant czech --hash 256 10 | tee /dev/stderr | grep -q '^depth=10 leaves=18368918 '
	./$(BUILD)/poolshark perft --variant english --paths --hash 256 12 | tee /dev/stderr | grep -q '^depth=12 leaves=388623673 '

# The network's search speed against the classic evaluation's, native and portable builds side by side.
bench-eval: deps $(BUILD)/poolshark portable
	sh bench/eval-speed --depth 13 ./$(BUILD)/poolshark ./build-portable/poolshark

# The native build, make portable and the Windows DLL under wine, side by side (bench/builds).
bench-builds: deps $(BUILD)/poolshark portable checkerboard $(WIN_BUILD)/cbtest.exe
	sh bench/builds --depth 15 --rounds 5

bench-perft: deps $(BUILD)/poolshark
	./$(BUILD)/poolshark perft 12 | tail -n 2

bench: deps $(BUILD)/poolshark $(BUILD)/bench/latency
	./$(BUILD)/poolshark bench
	./$(BUILD)/poolshark perft 12 | tail -n 2
	./$(BUILD)/bench/latency ./$(BUILD)/poolshark

# The default build is already tuned for this CPU.
native: all

portable: deps
	@$(MAKE) --no-print-directory BUILD=$(PORTABLE_BUILD) $(PORTABLE_FLAGS) all
	@echo "portable programs: $(PORTABLE_BUILD)/poolshark, and $(TOOLS) in $(PORTABLE_BUILD)/bin/"

# Profile-guided build: the bench and a perft are the training load.
pgo: deps
	rm -rf build-pgo
	@$(MAKE) --no-print-directory BUILD=build-pgo OPT="-O3 -march=native -fprofile-generate" build-pgo/poolshark
	./build-pgo/poolshark bench >/dev/null
	./build-pgo/poolshark perft 10 >/dev/null
	find build-pgo -name '*.o' -delete; rm -f build-pgo/libpoolshark.a build-pgo/poolshark
	@$(MAKE) --no-print-directory BUILD=build-pgo OPT="-O3 -march=native -fprofile-use -fprofile-partial-training -Wno-missing-profile" build-pgo/poolshark
	@echo "profile-guided engine: build-pgo/poolshark"

play: all
	./poolshark play

# Not in CI: bad input against every program, then a 1,000-game fast match.
soak: all
	sh tests/soak.sh $(BUILD)

format:
	git ls-files '*.c' '*.h' | xargs clang-format -i

# What CI checks about the shape of the code (doc/ARCHITECTURE.md).
check-shape:
	git ls-files '*.c' '*.h' | xargs clang-format --dry-run -Werror
	scripts/check-layers
