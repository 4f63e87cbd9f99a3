# SPDX-License-Identifier: GPL-3.0-or-later
# The browser app.

# The page: the library compiled by emcc into a Web Worker, inlined with the
# page's scripts into one web/dist/index.html (opens from disk too); around
# it in web/dist/ the site to copy to a web server: the web manifest, the
# icons, the service worker (offline use) and the endgame databases of up
# to WEB_EGDB_PIECES pieces (egdb/, read by the page when first needed).
EMCC     ?= emcc
WEB_OUT  := build-web
WEB_SRC  := $(LIB_SRC) $(BUILD)/gen/book_default.c $(BUILD)/gen/nnue_default.c web/compat/strtonum.c web/engine/worker.c
WEB_OBJ  := $(WEB_SRC:%.c=$(WEB_OUT)/%.o)
# WebAssembly SIMD (every current browser has it) for the network's
# integer arithmetic; `make web WEB_SIMD=` builds the page without it, for
# a browser that lacks it. Same scores either way (doc/WEB.md, "The
# network in the page").
WEB_SIMD ?= -msimd128
WEB_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -DPOOLSHARK_SINGLE_THREAD \
	-DPOOLSHARK_VERSION='"$(VERSION)"' $(WARN) -O3 $(WEB_SIMD) -Iinclude -Isrc -Iweb/compat -MMD -MP
WEB_LDFLAGS := -O3 $(WEB_SIMD) -sSINGLE_FILE=1 -sENVIRONMENT=worker -sALLOW_MEMORY_GROWTH=1 \
	-sEXPORTED_FUNCTIONS=_worker_create,_worker_line,_malloc,_free \
	-sEXPORTED_RUNTIME_METHODS=lengthBytesUTF8,stringToUTF8,UTF8ToString,FS -sFORCE_FILESYSTEM=1
# Debian's emcc runs its JavaScript passes with node, which must find Debian's acorn.
export NODE_PATH := $(NODE_PATH):/usr/share/nodejs

# As for the native builds: other flags (WEB_SIMD) rebuild the objects.
WEB_FLAGS_TEXT := $(EMCC) $(WEB_CFLAGS) $(WEB_LDFLAGS)
$(WEB_OUT)/flags: FORCE
	@mkdir -p $(dir $@)
	@echo '$(WEB_FLAGS_TEXT)' | cmp -s - $@ || echo '$(WEB_FLAGS_TEXT)' > $@

$(WEB_OUT)/%.o: %.c $(WEB_OUT)/flags
	@mkdir -p $(dir $@)
	$(EMCC) $(WEB_CFLAGS) -c $< -o $@

$(WEB_OUT)/engine.js: $(WEB_OBJ) web/engine/pre.js
	$(EMCC) $(WEB_LDFLAGS) --pre-js web/engine/pre.js $(WEB_OBJ) -o $@

WEB_EGDB_PIECES ?= 4
$(WEB_OUT)/egdb/built-$(WEB_EGDB_PIECES): $(BUILD)/bin/pool-egdb
	@mkdir -p $(dir $@)
	$(BUILD)/bin/pool-egdb build --dir $(WEB_OUT)/egdb --pieces $(WEB_EGDB_PIECES) --threads 2 --quiet
	@touch $@

web/dist/index.html: $(WEB_OUT)/engine.js web/index.html web/style.css $(wildcard web/src/*.js) web/build.mjs \
		web/icons.mjs web/sw.js $(WEB_OUT)/egdb/built-$(WEB_EGDB_PIECES)
	node web/build.mjs $(WEB_OUT)/engine.js web/dist $(WEB_OUT)/egdb

web:
	@sh web/ensure-tools build
	@$(MAKE) --no-print-directory deps
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

