# SPDX-License-Identifier: GPL-3.0-or-later
# poolshark: `make help` lists the targets. This file builds the library, the
# engine, the tools, the tests and benches; mk/*.mk hold the other jobs.

VERSION := 1.0.0
# Where make install puts the programs and manual pages (mk/release.mk); an
# installed copy looks for endgame databases in PREFIX/share/poolshark/egdb.
PREFIX  ?= /usr/local
CC      ?= cc
# Every build has a directory of its own and writes nothing outside it:
#   build/           make: for this machine; ./poolshark and the tools in the
#                    top directory are copies of its programs
#   build-portable/  make portable: generic, for packagers
#   build-san/  build-pgo/  build-fuzz/   make sanitize, make pgo, make fuzz
#   build-dist/      make dist: the generic build, static (mk/release.mk)
#   build-deb/       the Debian package's generic build (debian/rules)
BUILD   ?= build
# -O3 -march=native: the default is the fast build for the machine it runs on
# (profile-guided measured 5% faster on perft but 10% slower on the bench).
OPT     ?= -O3 -march=native
# make portable (and the Windows DLL): any x86-64 processor since 2009
# (x86-64-v2: POPCNT, SSE4.2); the network's kernels for AVX2, AVX-VNNI and
# AVX-512 VNNI are in every build and chosen at run time (doc/EVAL.md,
# "Kernels"). Elsewhere than x86-64, the compiler's own default.
X86_64  := $(findstring x86_64,$(shell $(CC) -dumpmachine 2>/dev/null))
PORTABLE_OPT := -O3 $(if $(X86_64),-march=x86-64-v2)
# The generic build's settings, for every build meant for other machines:
# make portable, make dist's Linux programs, the Debian package.
PORTABLE_FLAGS = OPT="$(PORTABLE_OPT)"
PORTABLE_BUILD ?= build-portable
WARN    := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes
PKGS    := cmocka libbsd
CFLAGS  ?= $(OPT)
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) -Iinclude -MMD -MP
BSD_LIBS = $(shell pkg-config --libs libbsd 2>/dev/null)
CMOCKA_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null)
LDLIBS  = $(BSD_LIBS) -lpthread -lm
# STATIC=1 links the programs (not the tests) statically: glibc's and
# libbsd's static libraries are enough (make dist's Linux programs).
ifeq ($(STATIC),1)
BSD_LIBS = $(shell pkg-config --static --libs libbsd 2>/dev/null)
PROGRAM_LDFLAGS = -static
endif

# One folder per layer (doc/ARCHITECTURE.md); every module but the program's main.
LIB_SRC   := $(filter-out src/frontend/main.c,$(wildcard src/*/*.c))
LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/book_default.o $(BUILD)/gen/nnue_default.o
LIB       := $(BUILD)/libpoolshark.a
# Code only the tools and their tests use (match client, statistics).
TOOLS_LIB_SRC := $(wildcard tools/lib/*.c)
TOOLS_LIB_OBJ := $(TOOLS_LIB_SRC:%.c=$(BUILD)/%.o)
TOOLS_LIB := $(BUILD)/libpoolshark-tools.a
SUPPORT   := $(wildcard tests/support/*.c)
SUPPORT_OBJ := $(SUPPORT:%.c=$(BUILD)/%.o)
# An archive, so that each test links the helpers it calls and no others.
SUPPORT_LIB := $(BUILD)/tests/libsupport.a
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

.PHONY: fuzz-build fuzz-corpus egdb egdb-verify egdb-conversion egdb-slurm-test
.PHONY: all deps test check-tests check-shape perft bench bench-eval bench-builds bench-perft sanitize native portable pgo play soak clean help fuzz \
	format web test-web bench-web checkerboard test-checkerboard FORCE

# Only the default build puts copies of its programs in the top directory.
ifeq ($(BUILD),build)
ROOT_PROGRAMS := poolshark $(TOOLS)
endif
PROGRAMS := $(BUILD)/poolshark $(TOOLS:%=$(BUILD)/bin/%)

# The bench programs too, so that none is left older than the library it measures.
all: deps $(PROGRAMS) $(ROOT_PROGRAMS) $(BENCHES)

help:
	@echo "make            build for this machine (-O3 -march=native) in build/: the engine"
	@echo "                ./poolshark, the library and the tools (copied to the top directory)"
	@echo "make portable   the generic build (x86-64-v2) for packagers, in build-portable/"
	@echo "make play       build, then play a game against the engine in this terminal"
	@echo "make test       install missing build dependencies, build and run every test suite"
	@echo "make sanitize   the tests built with -fsanitize=address,undefined"
	@echo "make perft      perft from the start position through depth 12 (long), the other rule sets through 10"
	@echo "make bench      search bench and perft speed benchmark"
	@echo "make bench-perft  perft 11 and 12 speed, leaves per second"
	@echo "make bench-eval  search speed with the network against the classic evaluation, native and portable"
	@echo "make bench-builds  native, portable and Windows DLL (under wine) search speed side by side"
	@echo "make fuzz       libFuzzer over the parsers (clang-14), FUZZ_SECONDS=60"
	@echo "make web        the page in web/dist/ (engine in WebAssembly, Debian's emscripten): index.html"
	@echo "                opens from disk; the folder is the site (installable app, offline, databases)"
	@echo "make test-web   browser tests of the page (Debian's chromium, playwright-core)"
	@echo "make bench-web  bench through the page's worker against the native binary"
	@echo "make checkerboard       build-win/poolshark64.dll, the CheckerBoard engine (mingw-w64),"
	@echo "                        and its copy poolshark64b.dll for a second, independent engine slot"
	@echo "make test-checkerboard  the DLL's test program under wine"
	@echo "make pgo        profile-guided build trained on the bench, in build-pgo/"
	@echo "make install    the programs, manual pages and openings into PREFIX=/usr/local"
	@echo "                (DESTDIR=, BINDIR=PREFIX/bin); make uninstall removes them"
	@echo "make dist       the release: dist/poolshark-$(VERSION)/ and its tarball, the same bytes"
	@echo "                from the same commit (a clean tree, or DIST_DIRTY=1; doc/RELEASE.md)"
	@echo "make test-man   lint the manual pages (mandoc, groff); make test-install: make install"
	@echo "                and uninstall into a scratch PREFIX; make test-dist: make dist, the"
	@echo "                unpacked bundle run, make dist again from a clone (CI runs all three)"
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
	@sh scripts/ensure-deps

# Objects depend on the command that compiles them (computed once, before any
# per-target flag), so that other flags or another compiler rebuild them;
# -Werror changes no object, so CI's -Werror build serves the tests too.
FLAGS_TEXT := $(CC) $(filter-out -Werror,$(ALL_CFLAGS)) $(LDFLAGS) $(PROGRAM_LDFLAGS) $(LDLIBS)
$(BUILD)/flags: FORCE
	@mkdir -p $(dir $@)
	@echo '$(FLAGS_TEXT)' | cmp -s - $@ || echo '$(FLAGS_TEXT)' > $@

$(BUILD)/%.o: %.c $(BUILD)/flags
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# The default opening book is compiled in, so that `poolshark play` finds it
# from any directory (doc/BOOK.md).
$(BUILD)/gen/book_default.c: book/default.book scripts/embed-bytes
	@mkdir -p $(dir $@)
	sh scripts/embed-bytes book_default book/default.book > $@.new && mv -f $@.new $@

$(BUILD)/gen/book_default.o: $(BUILD)/gen/book_default.c
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# The default networks, one per rule set, are compiled in the same way (doc/EVAL.md).
NNUE_DEFAULT := $(foreach v,pool russian brazilian english italian spanish czech,tools/data/nnue-$(v).bin)
$(BUILD)/gen/nnue_default.c: $(NNUE_DEFAULT) scripts/embed-bytes
	@mkdir -p $(dir $@)
	{ for v in pool russian brazilian english italian spanish czech; do \
		sh scripts/embed-bytes nnue_$$v tools/data/nnue-$$v.bin || exit 1; done; } > $@.new && mv -f $@.new $@

$(BUILD)/gen/nnue_default.o: $(BUILD)/gen/nnue_default.c
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# The version is set here and compiled into one object, with the directory
# where an installed copy looks for endgame databases (from PREFIX);
# $(BUILD)/config holds both, so that a change rebuilds that object.
EGDB_INSTALL_DIR = $(PREFIX)/share/poolshark/egdb
CONFIG_TEXT = $(VERSION) $(EGDB_INSTALL_DIR)
$(BUILD)/config: FORCE
	@mkdir -p $(dir $@)
	@echo '$(CONFIG_TEXT)' | cmp -s - $@ || echo '$(CONFIG_TEXT)' > $@
$(BUILD)/src/base/version.o $(BUILD)/pic/src/base/version.o: $(BUILD)/config
$(BUILD)/src/base/version.o $(BUILD)/pic/src/base/version.o: ALL_CFLAGS += -DPOOLSHARK_VERSION='"$(VERSION)"' \
	-DPOOLSHARK_EGDB_DIR='"$(EGDB_INSTALL_DIR)"'

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

$(TOOLS_LIB): $(TOOLS_LIB_OBJ)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

# The library's own programs and tests reach the front-end headers under src/
# (frontend/protocol.h); the library's API is include/poolshark/.
$(BUILD)/tools/%.o: ALL_CFLAGS += -Itools/lib
$(BUILD)/tests/%.o: ALL_CFLAGS += -Itools/lib -Isrc

$(BUILD)/poolshark: $(BUILD)/src/frontend/main.o $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $(PROGRAM_LDFLAGS) $^ -o $@ $(LDLIBS)

define tool_rule
$(BUILD)/bin/$(1): $(patsubst %.c,$(BUILD)/%.o,$(wildcard tools/$(1)/*.c)) $(TOOLS_LIB) $(LIB)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(ALL_CFLAGS) $$(LDFLAGS) $$(PROGRAM_LDFLAGS) $$^ -o $$@ $$(LDLIBS)
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

$(SUPPORT_LIB): $(SUPPORT_OBJ)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(SUPPORT_LIB) $(TOOLS_LIB) $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $^ -o $@ $(CMOCKA_LIBS) $(LDLIBS)

$(BUILD)/tests/helpers/%: $(BUILD)/tests/helpers/%.o $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/bench/%.o: ALL_CFLAGS += -Itools/lib -Isrc
$(BUILD)/bench/%: $(BUILD)/bench/%.o $(TOOLS_LIB) $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $^ -o $@ $(LDLIBS)

clean:
	rm -rf build build-portable build-san build-native build-pgo build-fuzz build-sig-gcc build-sig-clang build-sig-avx2 \
		build-web web/dist build-win build-dist build-deb dist poolshark $(TOOLS)

# The jobs beyond the library and its programs, one file each; this Makefile
# stays the one entry point (windows.mk before test.mk: the tests load its
# shared object).
include mk/windows.mk mk/test.mk mk/fuzz.mk mk/web.mk mk/egdb.mk mk/release.mk

-include $(shell find $(BUILD) $(WEB_OUT) $(WIN_BUILD) -name '*.d' 2>/dev/null)
