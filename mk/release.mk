# SPDX-License-Identifier: GPL-3.0-or-later
# The release (doc/RELEASE.md): make install and make uninstall (PREFIX,
# DESTDIR) and their tests.

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

# One line per file, MODE SOURCE TARGET, for scripts/install: $(1) is the
# build directory, $(2) where the programs go, $(3) the prefix of share/.
install_manifest = echo "755 $(1)/poolshark $(2)/poolshark"; \
	$(foreach t,$(TOOLS),echo "755 $(1)/bin/$(t) $(2)/$(call installed_name,$(t))";) \
	$(foreach m,$(MAN_PAGES),echo "644 $(m) $(3)/share/man/man6/$(notdir $(m))";) \
	$(foreach o,$(OPENINGS),echo "644 $(o) $(3)/share/poolshark/$(notdir $(o))";)

.PHONY: install uninstall install-portable test-man test-install

install: deps $(PROGRAMS)
	@{ $(call install_manifest,$(BUILD),$(BINDIR),$(PREFIX)) } | sh scripts/install install "$(DESTDIR)" "$(PREFIX)"

uninstall:
	@{ $(call install_manifest,$(BUILD),$(BINDIR),$(PREFIX)) } | sh scripts/install uninstall "$(DESTDIR)" "$(PREFIX)"

# The generic build, installed (what a package installs).
install-portable: deps
	@$(MAKE) --no-print-directory BUILD=$(PORTABLE_BUILD) $(PORTABLE_FLAGS) install

# The tests of the release, for CI (not in make test: they need mandoc and
# groff, or build more).
test-man:
	sh tests/man-test.sh

test-install:
	sh tests/install-test.sh
