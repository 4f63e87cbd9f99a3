# SPDX-License-Identifier: GPL-3.0-or-later
# The CheckerBoard engine: the adapter as a Linux shared object for the dlopen
# test, and the Windows DLL with its test program under wine.

# CheckerBoard engine (doc/CHECKERBOARD.md). The adapter as a Linux shared object, for the
# dlopen test: position-independent objects, only getmove and enginecommand exported.
CB_SO   := $(BUILD)/checkerboard/poolshark-cb.so
PIC_LIB := $(BUILD)/pic/libpoolshark.a
$(BUILD)/pic/%.o: %.c $(BUILD)/flags
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -c $< -o $@
$(PIC_LIB): $(LIB_SRC:%.c=$(BUILD)/pic/%.o) $(BUILD)/pic/$(BUILD)/gen/book_default.o \
		$(BUILD)/pic/$(BUILD)/gen/nnue_default.o
	$(AR) rcs $@ $^
$(BUILD)/pic/checkerboard/%.o: ALL_CFLAGS += -Isrc
$(CB_SO): $(BUILD)/pic/checkerboard/export.o $(PIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -shared $^ -o $@ $(LDLIBS)
$(BUILD)/tests/test_cbengine: $(BUILD)/tests/test_cbengine.o $(BUILD)/tests/checkerboard/scenario.o $(SUPPORT_LIB) \
		$(TOOLS_LIB) $(LIB)
	$(CC) $(ALL_CFLAGS) $^ -o $@ $(CMOCKA_LIBS) $(LDLIBS) -ldl

# The Windows DLL, cross-compiled with Debian's mingw-w64 (posix threads), and its test program.
# libbsd's strtonum comes from compat/mingw. libgcc and winpthreads are linked
# statically, so the DLL needs nothing beyond Windows' own DLLs (checked below).
WIN_CC     ?= x86_64-w64-mingw32-gcc-posix
WIN_OBJDUMP ?= x86_64-w64-mingw32-objdump
WIN_AR     ?= x86_64-w64-mingw32-ar
WIN_BUILD  := build-win
# Every library module but the engine program's own front-ends (command line,
# Hub loop, terminal game): the DLL's front-end is cbengine, and these use
# POSIX calls mingw lacks (SIGPIPE, fmemopen, localtime_r).
WIN_EXCLUDE := $(addprefix src/frontend/,$(addsuffix .c,main hubloop play cli cli_annotate cli_perft cli_search))
WIN_SRC := $(filter-out $(WIN_EXCLUDE),$(wildcard src/*/*.c))
# x86-64-v2, as make portable: the network's faster kernels are chosen at run time.
WIN_CFLAGS = -std=c11 -O3 -march=x86-64-v2 -D__USE_MINGW_ANSI_STDIO=1 $(WARN) $(EXTRA_CFLAGS) -Iinclude -Isrc -Icompat/mingw -MMD -MP
WIN_LDFLAGS = -static -static-libgcc -Wl,--no-insert-timestamp
WIN_SYSTEM_DLLS := kernel32|msvcrt|user32|advapi32|ws2_32|ucrtbase|api-ms-win-.*
# As for the native builds: other flags or another compiler rebuild the objects.
WIN_FLAGS_TEXT = $(WIN_CC) $(filter-out -Werror,$(WIN_CFLAGS))
$(WIN_BUILD)/flags: FORCE
	@mkdir -p $(dir $@)
	@echo '$(WIN_FLAGS_TEXT)' | cmp -s - $@ || echo '$(WIN_FLAGS_TEXT)' > $@
$(WIN_BUILD)/%.o: %.c $(WIN_BUILD)/flags
	@mkdir -p $(dir $@)
	$(WIN_CC) $(WIN_CFLAGS) -c $< -o $@
# The version, with a stamp so that a new one rebuilds the object.
$(WIN_BUILD)/version: FORCE
	@mkdir -p $(dir $@)
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' > $@
$(WIN_BUILD)/src/base/version.o: $(WIN_BUILD)/version
$(WIN_BUILD)/src/base/version.o: WIN_CFLAGS += -DPOOLSHARK_VERSION='"$(VERSION)"'
$(WIN_BUILD)/libpoolshark-core.a: $(WIN_SRC:%.c=$(WIN_BUILD)/%.o) $(WIN_BUILD)/$(BUILD)/gen/book_default.o \
		$(WIN_BUILD)/$(BUILD)/gen/nnue_default.o \
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

