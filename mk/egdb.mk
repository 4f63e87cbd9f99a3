# SPDX-License-Identifier: GPL-3.0-or-later
# Endgame databases and the Slurm test.

# Endgame databases (doc/EGDB.md); a rerun resumes after the last finished class.
# EGDB_VARIANT=NAME (russian, english, ...) builds that rule set's into databases/NAME,
# where the engine finds them from egdb-path databases.
EGDB_PIECES ?= 5
EGDB_THREADS ?= 2
EGDB_VARIANT ?= pool
EGDB_DIR = databases$(if $(filter-out pool,$(EGDB_VARIANT)),/$(EGDB_VARIANT))
egdb: deps pool-egdb
	./pool-egdb build --variant $(EGDB_VARIANT) --dir $(EGDB_DIR) --pieces $(EGDB_PIECES) --threads $(EGDB_THREADS)

egdb-verify: deps pool-egdb
	./pool-egdb verify --variant $(EGDB_VARIANT) --dir $(EGDB_DIR) --pieces $(EGDB_PIECES) --threads $(EGDB_THREADS)

# Needs the databases of EGDB_PIECES (make egdb): CONVERT_POSITIONS won and
# CONVERT_DRAWS drawn positions of EGDB_PIECES-1 and EGDB_PIECES pieces,
# CONVERT_NODES per move.
CONVERT_NODES ?= 100000
CONVERT_POSITIONS ?= 50
CONVERT_DRAWS ?= 50
CONVERT = ./egdb-convert --egdb $(EGDB_DIR) --variant $(EGDB_VARIANT) --pieces $(EGDB_PIECES) \
	--positions $(CONVERT_POSITIONS) --draws $(CONVERT_DRAWS) --nodes $(CONVERT_NODES)
egdb-conversion: all
	$(CONVERT) | tail -n 3
	$(CONVERT) --without | tail -n 3

# Starts its own single-node Slurm (needs root; installs Debian's slurm packages): databases, a
# sharded match and sharded training data through it.
egdb-slurm-test: all
	sh tests/slurm-test.sh

