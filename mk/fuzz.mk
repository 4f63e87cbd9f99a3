# SPDX-License-Identifier: GPL-3.0-or-later
# Fuzzing.

# libFuzzer harnesses tests/fuzz/*.c (the parsers of the library, and the tools' data-file
# reader), each run FUZZ_SECONDS from the corpus kept in tests/fuzz/corpus/NAME (and the
# hand-made seeds); new inputs and findings land in build-fuzz/. CI runs 10 s each: the kept
# corpus starts it where a long run left off. `make fuzz-corpus` merges what a long run found
# into the kept corpus (minimised: the fewest inputs that reach the same coverage).
FUZZ_SECONDS ?= 60
FUZZERS := $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/*.c))
FUZZ_CC ?= clang-14
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_LIBS := build-fuzz/libpoolshark-tools.a build-fuzz/libpoolshark.a
# The libraries in their own build (instrumented for coverage), then each
# harness, relinked only when it or they change.
fuzz-build: deps
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=$(FUZZ_CC) OPT="-g -O1" \
		EXTRA_CFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" $(FUZZ_LIBS)
	@$(MAKE) --no-print-directory $(FUZZERS:%=build-fuzz/%)

build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_LIBS)
	$(FUZZ_CC) $(ALL_CFLAGS) -Itools/lib -Isrc -g -O1 -fsanitize=fuzzer $(FUZZ_SAN) $< $(FUZZ_LIBS) -o $@ $(LDLIBS)

# Each harness is a target of its own, so that `make -j2 fuzz` runs two at
# a time; a harness's output is printed whole when it ends.
fuzz: fuzz-build
	@$(MAKE) --no-print-directory --output-sync=target $(FUZZERS:%=fuzz-run/%)

fuzz-run/%: FORCE
	@name=$*; mkdir -p build-fuzz/corpus/$$name; \
	kept=; test -d tests/fuzz/corpus/$$name && kept=tests/fuzz/corpus/$$name; \
	seeds=; test -d tests/fuzz/seeds/$$name && seeds=tests/fuzz/seeds/$$name; \
	dict=; test -f tests/fuzz/$$name.dict && dict=-dict=tests/fuzz/$$name.dict; \
	echo "== $$name for $(FUZZ_SECONDS) s"; \
	./build-fuzz/$$name -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -artifact_prefix=build-fuzz/$$name- \
		$$dict build-fuzz/corpus/$$name $$kept $$seeds

fuzz-corpus: fuzz-build
	@for name in $(FUZZERS); do \
		mkdir -p build-fuzz/corpus/$$name tests/fuzz/corpus/$$name; \
		rm -rf build-fuzz/merged; mkdir -p build-fuzz/merged; \
		seeds=; test -d tests/fuzz/seeds/$$name && seeds=tests/fuzz/seeds/$$name; \
		./build-fuzz/$$name -merge=1 build-fuzz/merged tests/fuzz/corpus/$$name build-fuzz/corpus/$$name \
			$$seeds 2>&1 | grep -E 'MERGE-OUTER: [0-9]+ new files' || exit 1; \
		rm -rf tests/fuzz/corpus/$$name && mv build-fuzz/merged tests/fuzz/corpus/$$name; \
		echo "tests/fuzz/corpus/$$name: $$(ls tests/fuzz/corpus/$$name | wc -l) inputs"; \
	done

