# SPDX-License-Identifier: GPL-3.0-or-later
# Endgame databases and the Slurm test.

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

