# SPDX-License-Identifier: GPL-3.0-or-later
# poolshark: `make help` lists the targets.

VERSION := 0.1
CC      ?= cc
# Every build has a directory of its own and writes nothing outside it:
#   build/           make: for this machine; ./poolshark and the tools in the
#                    top directory are copies of its programs
#   build-portable/  make portable: generic, for packagers
#   build-san/  build-pgo/  build-fuzz/   make sanitize, make pgo, make fuzz
BUILD   ?= build
# -O3 -march=native: the default is the fast build for the machine it runs on
# (profile-guided measured 5% faster on perft but 10% slower on the bench).
OPT     ?= -O3 -march=native
PORTABLE_OPT := -O2
WARN    := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes
PKGS    := cmocka libbsd
CFLAGS  ?= $(OPT)
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) -Iinclude -MMD -MP
BSD_LIBS = $(shell pkg-config --libs libbsd 2>/dev/null)
CMOCKA_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null)
LDLIBS  = $(BSD_LIBS) -lpthread -lm

LIB_SRC   := $(filter-out src/main.c,$(wildcard src/*.c))
LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/book_default.o
LIB       := $(BUILD)/libpoolshark.a
# Code only the tools and their tests use (match client, statistics).
TOOLS_LIB_SRC := $(wildcard tools/lib/*.c)
TOOLS_LIB_OBJ := $(TOOLS_LIB_SRC:%.c=$(BUILD)/%.o)
TOOLS_LIB := $(BUILD)/libpoolshark-tools.a
SUPPORT   := $(wildcard tests/support/*.c)
SUPPORT_OBJ := $(SUPPORT:%.c=$(BUILD)/%.o)
TEST_SRC  := $(wildcard tests/test_*.c)
TESTS     := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
# Shell tests that drive the built programs (run by make test after the suites).
SHELL_TESTS := $(wildcard tests/test_*.sh)
HELPER_SRC := $(wildcard tests/helpers/*.c)
HELPERS   := $(HELPER_SRC:tests/helpers/%.c=$(BUILD)/tests/helpers/%)
BENCH_SRC := $(wildcard bench/*.c)
BENCHES   := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)
TOOL_DIRS := $(filter-out lib,$(patsubst tools/%/,%,$(dir $(wildcard tools/*/*.c))))
TOOLS     := $(sort $(TOOL_DIRS))

# Keep objects between builds (they are intermediate for the pattern rules).
.PRECIOUS: $(BUILD)/%.o

.PHONY: egdb egdb-verify egdb-conversion egdb-slurm-test
.PHONY: all deps test check-tests check-shape perft bench bench-perft sanitize native portable pgo play soak clean help fuzz \
	format web test-web bench-web checkerboard test-checkerboard FORCE

# Only the default build puts copies of its programs in the top directory.
ifeq ($(BUILD),build)
ROOT_PROGRAMS := poolshark $(TOOLS)
endif
PROGRAMS := $(BUILD)/poolshark $(TOOLS:%=$(BUILD)/bin/%)

all: deps $(PROGRAMS) $(ROOT_PROGRAMS)

help:
	@echo "make            build for this machine (-O3 -march=native) in build/: the engine"
	@echo "                ./poolshark, the library and the tools (copied to the top directory)"
	@echo "make portable   the generic build (-O2) for packagers, in build-portable/"
	@echo "make play       build, then play a game against the engine in this terminal"
	@echo "make test       install missing build dependencies, build and run every test suite"
	@echo "make sanitize   the tests built with -fsanitize=address,undefined"
	@echo "make perft      perft from the start position through depth 12 (long), Russian and Brazilian through 10"
	@echo "make bench      search bench and perft speed benchmark"
	@echo "make bench-perft  perft 11 and 12 speed, leaves per second"
	@echo "make fuzz       libFuzzer over the parsers (clang-14), FUZZ_SECONDS=60"
	@echo "make web        the page in web/dist/ (engine in WebAssembly, Debian's emscripten)"
	@echo "make test-web   browser tests of the page (Debian's chromium, playwright-core)"
	@echo "make bench-web  bench through the page's worker against the native binary"
	@echo "make checkerboard       build-win/poolshark64.dll, the CheckerBoard engine (mingw-w64),"
	@echo "                        and its copy poolshark64b.dll for a second, independent engine slot"
	@echo "make test-checkerboard  the DLL's test program under wine"
	@echo "make pgo        profile-guided build trained on the bench, in build-pgo/"
	@echo "make soak       abuse the engine, CLI, terminal game and pool-match, then three"
	@echo "                1,000-game fast matches (one on busy cores); forfeits against the goals (long)"
	@echo "make format     clang-format every C file; make check-shape: formatting and include layers"
	@echo "make egdb       endgame databases up to EGDB_PIECES=5 pieces into databases/ (EGDB_THREADS=2)"
	@echo "make egdb-verify  re-derive every database value from its successors"
	@echo "make egdb-conversion  50 won and 50 drawn endings against perfect play, with and without databases"
	@echo "make egdb-slurm-test  a single-node Slurm (root): databases, a sharded match and sharded"
	@echo "                      training data through it"
	@echo "make clean      remove build outputs (not databases/)"

deps:
	@sh tools/ensure-deps

# Objects depend on the command that compiles them (computed once, before any
# per-target flag), so that other flags or another compiler rebuild them;
# -Werror changes no object, so CI's -Werror build serves the tests too.
FLAGS_TEXT := $(CC) $(filter-out -Werror,$(ALL_CFLAGS)) $(LDLIBS)
$(BUILD)/flags: FORCE
	@mkdir -p $(dir $@)
	@echo '$(FLAGS_TEXT)' | cmp -s - $@ || echo '$(FLAGS_TEXT)' > $@

$(BUILD)/%.o: %.c $(BUILD)/flags
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# The default opening book is compiled in, so that `poolshark play` finds it
# from any directory (doc/BOOK.md).
$(BUILD)/gen/book_default.c: book/default.book tools/embed-bytes
	@mkdir -p $(dir $@)
	sh tools/embed-bytes book_default book/default.book > $@.new && mv -f $@.new $@

$(BUILD)/gen/book_default.o: $(BUILD)/gen/book_default.c
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# The version is set here and compiled into one object.
$(BUILD)/src/version.o $(BUILD)/pic/src/version.o: ALL_CFLAGS += -DPOOLSHARK_VERSION='"$(VERSION)"'

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

$(TOOLS_LIB): $(TOOLS_LIB_OBJ)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

$(BUILD)/tools/%.o: ALL_CFLAGS += -Itools/lib
$(BUILD)/tests/%.o: ALL_CFLAGS += -Itools/lib

$(BUILD)/poolshark: $(BUILD)/src/main.o $(LIB)
	$(CC) $(ALL_CFLAGS) $^ -o $@ $(LDLIBS)

define tool_rule
$(BUILD)/bin/$(1): $(patsubst %.c,$(BUILD)/%.o,$(wildcard tools/$(1)/*.c)) $(TOOLS_LIB) $(LIB)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(ALL_CFLAGS) $$^ -o $$@ $$(LDLIBS)
endef
$(foreach t,$(TOOLS),$(eval $(call tool_rule,$(t))))

# A top-level program is copied whenever it differs from the default build's
# (not by timestamp), then renamed, so that a running one is not written over.
define root_copy
$(1): $(2) FORCE
	@cmp -s $$< $$@ || { cp $$< $$@.new && mv -f $$@.new $$@ && echo "./$$@ is $$<"; }
endef
ifeq ($(BUILD),build)
$(eval $(call root_copy,poolshark,$(BUILD)/poolshark))
$(foreach t,$(TOOLS),$(eval $(call root_copy,$(t),$(BUILD)/bin/$(t))))
endif

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(SUPPORT_OBJ) $(TOOLS_LIB) $(LIB)
	$(CC) $(ALL_CFLAGS) $^ -o $@ $(CMOCKA_LIBS) $(LDLIBS)

$(BUILD)/tests/helpers/%: $(BUILD)/tests/helpers/%.o $(LIB)
	$(CC) $(ALL_CFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/bench/%.o: ALL_CFLAGS += -Itools/lib
$(BUILD)/bench/%: $(BUILD)/bench/%.o $(TOOLS_LIB) $(LIB)
	$(CC) $(ALL_CFLAGS) $^ -o $@ $(LDLIBS)

# CheckerBoard engine (doc/CHECKERBOARD.md). The adapter as a Linux shared object, for the
# dlopen test: position-independent objects, only getmove and enginecommand exported.
CB_SO   := $(BUILD)/checkerboard/poolshark-cb.so
PIC_LIB := $(BUILD)/pic/libpoolshark.a
$(BUILD)/pic/%.o: %.c $(BUILD)/flags
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -c $< -o $@
$(PIC_LIB): $(LIB_SRC:%.c=$(BUILD)/pic/%.o) $(BUILD)/pic/$(BUILD)/gen/book_default.o
	$(AR) rcs $@ $^
$(CB_SO): $(BUILD)/pic/checkerboard/export.o $(PIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -shared $^ -o $@ $(LDLIBS)
$(BUILD)/tests/test_cbengine: $(BUILD)/tests/test_cbengine.o $(BUILD)/tests/checkerboard/scenario.o $(SUPPORT_OBJ) \
		$(TOOLS_LIB) $(LIB)
	$(CC) $(ALL_CFLAGS) $^ -o $@ $(CMOCKA_LIBS) $(LDLIBS) -ldl

# The Windows DLL, cross-compiled with Debian's mingw-w64 (posix threads), and its test program.
# Only the modules the engine needs; libbsd's strtonum comes from compat/mingw. libgcc and winpthreads are linked
# statically, so the DLL needs nothing beyond Windows' own DLLs (checked below).
WIN_CC     ?= x86_64-w64-mingw32-gcc-posix
WIN_OBJDUMP ?= x86_64-w64-mingw32-objdump
WIN_AR     ?= x86_64-w64-mingw32-ar
WIN_BUILD  := build-win
WIN_MODULES := bitboard position move movegen movecount movegen_variant variant notation text game eval tt egdb_class egdb_file egdb search \
	threads book timeman engine cbengine bigmem clock score number options version checksum workers
WIN_CFLAGS = -std=c11 -O2 -D__USE_MINGW_ANSI_STDIO=1 $(WARN) $(EXTRA_CFLAGS) -Iinclude -Icompat/mingw -MMD -MP
WIN_LDFLAGS = -static -static-libgcc -Wl,--no-insert-timestamp
WIN_SYSTEM_DLLS := kernel32|msvcrt|user32|advapi32|ws2_32|ucrtbase|api-ms-win-.*
$(WIN_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(WIN_CC) $(WIN_CFLAGS) -c $< -o $@
$(WIN_BUILD)/src/version.o: WIN_CFLAGS += -DPOOLSHARK_VERSION='"$(VERSION)"'
$(WIN_BUILD)/libpoolshark-core.a: $(WIN_MODULES:%=$(WIN_BUILD)/src/%.o) $(WIN_BUILD)/$(BUILD)/gen/book_default.o \
		$(WIN_BUILD)/compat/mingw/strtonum.o
	$(WIN_AR) rcs $@ $^
$(WIN_BUILD)/poolshark64.dll: $(WIN_BUILD)/checkerboard/export.o $(WIN_BUILD)/libpoolshark-core.a
	$(WIN_CC) -shared $^ -o $@ $(WIN_LDFLAGS) -lpthread
	@if $(WIN_OBJDUMP) -p $@ | sed -n 's/.*DLL Name: //p' | grep -viE '^($(WIN_SYSTEM_DLLS))\.dll$$'; then \
		echo "$@ needs the DLLs above, which Windows does not have"; rm -f $@; exit 1; fi
$(WIN_BUILD)/cbtest.exe: $(WIN_BUILD)/tests/checkerboard/wine_main.o $(WIN_BUILD)/tests/checkerboard/scenario.o \
		$(WIN_BUILD)/libpoolshark-core.a
	$(WIN_CC) $^ -o $@ $(WIN_LDFLAGS) -lpthread

# A second copy under another name: Windows loads a DLL once per file name, so
# CheckerBoard's primary and secondary engine slots given the same file share
# one engine (its options, table and strength); given the two files they are
# two engines.
$(WIN_BUILD)/poolshark64b.dll: $(WIN_BUILD)/poolshark64.dll
	cp $< $@

checkerboard: $(WIN_BUILD)/poolshark64.dll $(WIN_BUILD)/poolshark64b.dll
	@$(WIN_OBJDUMP) -p $< | sed -n 's/.*DLL Name: /imports: /p'

# wine runs the console test without a display; its prefix lives in the build directory.
test-checkerboard: checkerboard $(WIN_BUILD)/cbtest.exe
	WINEPREFIX=$(CURDIR)/$(WIN_BUILD)/wineprefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" \
		wine $(WIN_BUILD)/cbtest.exe $(WIN_BUILD)/poolshark64.dll $(WIN_BUILD)/poolshark64b.dll

# Every suite runs even when one fails; the summary line counts them.
test: deps
	@$(MAKE) --no-print-directory check-tests

check-tests: $(PROGRAMS) $(TESTS) $(HELPERS) $(CB_SO)
	@pass=0; fail=0; \
	for t in $(TESTS) $(SHELL_TESTS); do \
		echo "== $$t"; \
		case $$t in *.sh) run="sh $$t" ;; *) run=$$t ;; esac; \
		if POOLSHARK_BIN=$(CURDIR)/$(BUILD)/poolshark HELPER_DIR=$(CURDIR)/$(BUILD)/tests/helpers \
		   TOOL_DIR=$(CURDIR)/$(BUILD)/bin CB_LIBRARY=$(CURDIR)/$(CB_SO) $$run; then pass=$$((pass+1)); \
		else fail=$$((fail+1)); echo "FAILED: $$t"; fi; \
	done; \
	echo "suites: $$pass passed, $$fail failed"; \
	test $$fail -eq 0

sanitize: deps
	@$(MAKE) --no-print-directory BUILD=build-san OPT="-O1 -g -fno-omit-frame-pointer" \
		EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all" check-tests

perft: deps $(BUILD)/poolshark
	./$(BUILD)/poolshark perft 12
	./$(BUILD)/poolshark perft --variant russian --hash 256 10 | tee /dev/stderr | grep -q '^depth=10 leaves=22444032 '
	./$(BUILD)/poolshark perft --variant brazilian --hash 256 10 | tee /dev/stderr | grep -q '^depth=10 leaves=21560022 '

bench-perft: deps $(BUILD)/poolshark
	./$(BUILD)/poolshark perft 12 | tail -n 2

bench: deps $(BUILD)/poolshark $(BUILD)/bench/latency
	./$(BUILD)/poolshark bench
	./$(BUILD)/poolshark perft 12 | tail -n 2
	./$(BUILD)/bench/latency ./$(BUILD)/poolshark

# The default build is already tuned for this CPU.
native: all

portable: deps
	@$(MAKE) --no-print-directory BUILD=build-portable OPT="$(PORTABLE_OPT)" all
	@echo "portable programs: build-portable/poolshark, and $(TOOLS) in build-portable/bin/"

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
		$(FUZZ_CC) $(ALL_CFLAGS) -Itools/lib -g -O1 -fsanitize=fuzzer $(FUZZ_SAN) $$src \
			build-fuzz/libpoolshark-tools.a build-fuzz/libpoolshark.a \
			-o build-fuzz/$$name $(LDLIBS) || exit 1; \
		mkdir -p build-fuzz/corpus/$$name; \
		seeds=; test -d tests/fuzz/seeds/$$name && seeds=tests/fuzz/seeds/$$name; \
		dict=; test -f tests/fuzz/$$name.dict && dict=-dict=tests/fuzz/$$name.dict; \
		echo "== $$name for $(FUZZ_SECONDS) s"; \
		./build-fuzz/$$name -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -artifact_prefix=build-fuzz/$$name- \
			$$dict build-fuzz/corpus/$$name $$seeds || exit 1; \
	done

# The page: the library compiled by emcc into a Web Worker, inlined with the
# page's scripts into one web/dist/index.html (opens from disk too).
EMCC     ?= emcc
WEB_OUT  := build-web
WEB_SRC  := $(LIB_SRC) $(BUILD)/gen/book_default.c web/compat/strtonum.c web/engine/worker.c
WEB_OBJ  := $(WEB_SRC:%.c=$(WEB_OUT)/%.o)
WEB_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -DPOOLSHARK_SINGLE_THREAD \
	-DPOOLSHARK_VERSION='"$(VERSION)"' $(WARN) -O3 -Iinclude -Iweb/compat -MMD -MP
WEB_LDFLAGS := -O3 -sSINGLE_FILE=1 -sENVIRONMENT=worker -sALLOW_MEMORY_GROWTH=1 \
	-sEXPORTED_FUNCTIONS=_worker_create,_worker_line,_malloc,_free \
	-sEXPORTED_RUNTIME_METHODS=lengthBytesUTF8,stringToUTF8,UTF8ToString
# Debian's emcc runs its JavaScript passes with node, which must find Debian's acorn.
export NODE_PATH := $(NODE_PATH):/usr/share/nodejs

$(WEB_OUT)/%.o: %.c
	@mkdir -p $(dir $@)
	$(EMCC) $(WEB_CFLAGS) -c $< -o $@

$(WEB_OUT)/engine.js: $(WEB_OBJ) web/engine/pre.js
	$(EMCC) $(WEB_LDFLAGS) --pre-js web/engine/pre.js $(WEB_OBJ) -o $@

web/dist/index.html: $(WEB_OUT)/engine.js web/index.html web/style.css $(wildcard web/src/*.js) web/build.mjs
	node web/build.mjs $(WEB_OUT)/engine.js $@

web:
	@sh web/ensure-tools build
	@$(MAKE) --no-print-directory web/dist/index.html

web/node_modules/.package-lock.json: web/package-lock.json
	cd web && npm ci --no-audit --no-fund

test-web: deps web poolshark $(BUILD)/tests/helpers/pdn_read
	@sh web/ensure-tools test
	@$(MAKE) --no-print-directory web/node_modules/.package-lock.json
	@fail=0; for t in web/tests/*.test.mjs; do \
		POOLSHARK_BIN=$(CURDIR)/poolshark PDN_READ=$(CURDIR)/$(BUILD)/tests/helpers/pdn_read \
			node --test $$t || fail=1; \
	done; test $$fail -eq 0

bench-web: web poolshark web/node_modules/.package-lock.json
	node web/tests/bench.mjs $(CURDIR)/poolshark

# Endgame databases (doc/EGDB.md); a rerun resumes after the last finished class.
EGDB_PIECES ?= 5
EGDB_THREADS ?= 2
egdb: deps pool-egdb
	./pool-egdb build --dir databases --pieces $(EGDB_PIECES) --threads $(EGDB_THREADS)

egdb-verify: deps pool-egdb
	./pool-egdb verify --dir databases --pieces $(EGDB_PIECES) --threads $(EGDB_THREADS)

# Needs the five-piece databases (make egdb); CONVERT_NODES per move.
CONVERT_NODES ?= 100000
egdb-conversion: all
	./egdb-convert --egdb databases --nodes $(CONVERT_NODES) | tail -n 3
	./egdb-convert --egdb databases --nodes $(CONVERT_NODES) --without | tail -n 3

# Starts its own single-node Slurm (needs root; installs Debian's slurm packages): databases, a
# sharded match and sharded training data through it.
egdb-slurm-test: all
	sh tests/slurm-test.sh

format:
	git ls-files '*.c' '*.h' | xargs clang-format -i

# What CI checks about the shape of the code (doc/ARCHITECTURE.md).
check-shape:
	git ls-files '*.c' '*.h' | xargs clang-format --dry-run -Werror
	tools/check-layers

clean:
	rm -rf build build-portable build-san build-native build-pgo build-fuzz build-sig-gcc build-sig-clang \
		build-web web/dist build-win poolshark $(TOOLS)

-include $(shell find $(BUILD) $(WEB_OUT) $(WIN_BUILD) -name '*.d' 2>/dev/null)
