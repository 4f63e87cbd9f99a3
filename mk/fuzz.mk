# SPDX-License-Identifier: GPL-3.0-or-later
# Fuzzing.

# libFuzzer harnesses tests/fuzz/*.c (the parsers of the library, and the tools' data-file
# reader), each run FUZZ_SECONDS; findings land in build-fuzz/.
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang-14
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
fuzz: deps
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=$(FUZZ_CC) OPT="-g -O1" \
		EXTRA_CFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" build-fuzz/libpoolshark.a build-fuzz/libpoolshark-tools.a
	@for src in $(wildcard tests/fuzz/*.c); do \
		name=$$(basename $$src .c); \
		$(FUZZ_CC) $(ALL_CFLAGS) -Itools/lib -Isrc -g -O1 -fsanitize=fuzzer $(FUZZ_SAN) $$src \
			build-fuzz/libpoolshark-tools.a build-fuzz/libpoolshark.a \
			-o build-fuzz/$$name $(LDLIBS) || exit 1; \
		mkdir -p build-fuzz/corpus/$$name; \
		seeds=; test -d tests/fuzz/seeds/$$name && seeds=tests/fuzz/seeds/$$name; \
		dict=; test -f tests/fuzz/$$name.dict && dict=-dict=tests/fuzz/$$name.dict; \
		echo "== $$name for $(FUZZ_SECONDS) s"; \
		./build-fuzz/$$name -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -artifact_prefix=build-fuzz/$$name- \
			$$dict build-fuzz/corpus/$$name $$seeds || exit 1; \
	done

