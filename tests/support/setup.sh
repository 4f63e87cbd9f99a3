# SPDX-License-Identifier: GPL-3.0-or-later
# The shell tests' set-up, sourced first (. "$(dirname "$0")/support/setup.sh"):
# bin and tools from POOLSHARK_BIN and TOOL_DIR (make test sets both), a
# scratch directory /tmp/TEST.XXXXXX removed at exit, and failed=0.
set -u
bin=${POOLSHARK_BIN:?POOLSHARK_BIN must be set (make test does)}
tools=${TOOL_DIR:?TOOL_DIR must be set (make test does)}
scratch=$(mktemp -d "/tmp/$(basename "$0" .sh).XXXXXX")
trap 'rm -rf "$scratch"' EXIT
failed=0
