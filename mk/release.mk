# SPDX-License-Identifier: GPL-3.0-or-later
# The release (doc/RELEASE.md): make install and make uninstall (PREFIX,
# DESTDIR), make dist (the bundle and its tarball) and their tests.

# The programs go to BINDIR (PREFIX/bin; the Debian package's is /usr/games),
# the tools whose names are common words (train, tune, ...) as
# poolshark-NAME; the manual pages, one per installed program, to
# PREFIX/share/man/man6; the match openings to PREFIX/share/poolshark. The
# book and the networks are compiled in, and an installed copy looks for
# endgame databases in PREFIX/share/poolshark/egdb.
INSTALL_PREFIXED := datagen make-book make-openings selfplay train tune
installed_name = $(if $(filter $(1),$(INSTALL_PREFIXED)),poolshark-$(1),$(1))
BINDIR ?= $(PREFIX)/bin
MAN_PAGES := $(wildcard doc/man/*.6)
OPENINGS := $(wildcard tools/data/openings*.fen)

# One line per file, MODE SOURCE TARGET, for scripts/install and
# scripts/make-dist: $(1) is the build directory, $(2) where the programs
# go, $(3) the prefix of share/.
install_manifest = echo "755 $(1)/poolshark $(2)/poolshark"; \
	$(foreach t,$(TOOLS),echo "755 $(1)/bin/$(t) $(2)/$(call installed_name,$(t))";) \
	$(foreach m,$(MAN_PAGES),echo "644 $(m) $(3)/share/man/man6/$(notdir $(m))";) \
	$(foreach o,$(OPENINGS),echo "644 $(o) $(3)/share/poolshark/$(notdir $(o))";)

.PHONY: install uninstall install-portable dist test-man test-install test-dist

install: deps $(PROGRAMS)
	@{ $(call install_manifest,$(BUILD),$(BINDIR),$(PREFIX)) } | sh scripts/install install "$(DESTDIR)" "$(PREFIX)"

uninstall:
	@{ $(call install_manifest,$(BUILD),$(BINDIR),$(PREFIX)) } | sh scripts/install uninstall "$(DESTDIR)" "$(PREFIX)"

# The generic build, installed (the Debian package's, debian/rules).
install-portable: deps
	@$(MAKE) --no-print-directory BUILD=$(PORTABLE_BUILD) $(PORTABLE_FLAGS) install

# make dist: dist/poolshark-VERSION/ and dist/poolshark-VERSION.tar.gz, the
# same bytes from the same commit. The Linux programs are the generic
# build, linked statically and stripped, in build-dist/ (for PREFIX
# /usr/local); the Windows engines and the page are make checkerboard's
# and make web's.
DIST_NAME  := poolshark-$(VERSION)
DIST_BUILD := build-dist
dist: deps
	@sh scripts/make-dist check
	@$(MAKE) --no-print-directory BUILD=$(DIST_BUILD) $(PORTABLE_FLAGS) STATIC=1 LDFLAGS=-s PREFIX=/usr/local \
		$(DIST_BUILD)/poolshark $(TOOLS:%=$(DIST_BUILD)/bin/%)
	@$(MAKE) --no-print-directory checkerboard
	@$(MAKE) --no-print-directory web
	@{ $(call install_manifest,$(DIST_BUILD),/bin,) \
	   echo "644 $(WIN_BUILD)/poolshark64.dll /windows/poolshark64.dll"; \
	   echo "644 $(WIN_BUILD)/poolshark64b.dll /windows/poolshark64b.dll"; \
	   echo "644 COPYING /COPYING"; \
	   echo "644 CHANGES.md /CHANGES.md"; \
	   find web/dist -type f | LC_ALL=C sort | sed 's|^web/dist/\(.*\)|644 & /web/\1|'; \
	 } | sh scripts/make-dist build dist $(DIST_NAME) $(VERSION)

# The tests of the release, for CI (not in make test: they need mandoc and
# groff, or build more). tests/deb-test.sh installs the package on the
# machine: CI alone runs it.
test-man:
	sh tests/man-test.sh

test-install:
	sh tests/install-test.sh

test-dist:
	sh tests/dist-test.sh
