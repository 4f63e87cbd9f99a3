#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Starts a single-node Slurm (munged, slurmctld, slurmd as root, all state in
# a scratch directory, ports 16817-16818), builds the endgame databases up to
# EGDB_PIECES (4) through scripts/egdb-slurm (step 1 of every pair in two index
# slices) and verifies them in two index slices there, checks the files are identical to
# a local build (and Russian's up to 3 pieces with --variant), runs a small pool-match as shards through scripts/match-slurm
# and checks the joined summary, generates training data as shards through
# scripts/datagen-slurm and checks the joined file is the unsharded run's, byte
# for byte, then stops what it started. Needs root and
# Debian's slurmctld slurmd slurm-client munge (installed when missing).
set -eu
cd "$(dirname "$0")/.."
pieces=${EGDB_PIECES:-4}

need=
for pkg in slurmctld slurmd slurm-client munge; do
	dpkg -s "$pkg" >/dev/null 2>&1 || need="$need $pkg"
done
if [ -n "$need" ]; then
	[ "$(id -u)" = 0 ] || { echo "slurm-test: needs root to install$need" >&2; exit 1; }
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -qq $need >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq $need >/dev/null; }
fi

t=$(mktemp -d /tmp/poolshark-slurm-XXXXXX)
chmod 755 "$t"
host=$(hostname -s)
cleanup() {
	for pidfile in "$t/slurmd.pid" "$t/slurmctld.pid" "$t/munged.pid"; do
		[ -s "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
	done
	sleep 1
	rm -rf "$t"
}
trap cleanup EXIT INT TERM

# MUNGE with a key of our own.
mkdir -p "$t/munge"
chmod 700 "$t/munge"
dd if=/dev/urandom of="$t/munge/key" bs=1024 count=1 2>/dev/null
chmod 400 "$t/munge/key"
munged --force --key-file="$t/munge/key" --socket="$t/munge/socket" --pid-file="$t/munged.pid" \
	--log-file="$t/munge/log" --seed-file="$t/munge/seed"

mkdir -p "$t/state" "$t/spool"
cat > "$t/slurm.conf" <<CONF
ClusterName=poolshark
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$t/munge/socket
StateSaveLocation=$t/state
SlurmdSpoolDir=$t/spool
SlurmctldPidFile=$t/slurmctld.pid
SlurmdPidFile=$t/slurmd.pid
SlurmctldLogFile=$t/slurmctld.log
SlurmdLogFile=$t/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=2,sched_min_interval=100000
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=2 RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$t/slurm.conf"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
i=0
until sinfo -h -o %T 2>/dev/null | grep -q idle; do
	i=$((i + 1))
	[ $i -lt 60 ] || { echo "slurm-test: the node never came up" >&2; cat "$t/slurmctld.log" "$t/slurmd.log" >&2; exit 1; }
	sleep 1
done
echo "== single-node Slurm up on $host"

echo "== databases up to $pieces pieces through Slurm"
scripts/egdb-slurm --pieces "$pieces" --dir "$t/slurm-db" --tool ./pool-egdb --slices 2 --verify-slices 2 --wait >/dev/null
cat "$t"/slurm-db/slurm-verify-*.log
echo "== the same locally"
./pool-egdb build --pieces "$pieces" --dir "$t/local-db" --quiet
rm -f "$t"/slurm-db/slurm-*.log
ls "$t"/slurm-db | grep -v '\.egdb$' && { echo "slurm-test: files left besides the databases" >&2; exit 1; }
if ! diff -r "$t/local-db" "$t/slurm-db"; then
	echo "slurm-test: the files built through Slurm differ from the local build" >&2
	exit 1
fi
echo "identical: $(ls "$t/local-db" | wc -l) files"

echo "== Russian databases up to 3 pieces through Slurm (--variant)"
scripts/egdb-slurm --variant russian --pieces 3 --dir "$t/slurm-russian" --tool ./pool-egdb --wait >/dev/null
./pool-egdb build --variant russian --pieces 3 --dir "$t/local-russian" --quiet
rm -f "$t"/slurm-russian/slurm-*.log
if ! diff -r "$t/local-russian" "$t/slurm-russian"; then
	echo "slurm-test: the Russian files built through Slurm differ from the local build" >&2
	exit 1
fi
./pool-egdb info --variant russian --dir "$t/slurm-russian" | tail -n 1

echo "== a pool-match in 2 shards through Slurm"
scripts/match-slurm --shards 2 --out "$t/match" --tool ./pool-match --wait -- \
	--engine cmd=./poolshark name=a --engine cmd=./poolshark name=b --games 8 --depth 2 \
	--openings tools/data/openings.fen --seed 7 >/dev/null
./pool-match --engine cmd=./poolshark name=a --engine cmd=./poolshark name=b --games 8 --depth 2 \
	--openings tools/data/openings.fen --seed 7 --pdn "$t/whole.pdn" >/dev/null
./pool-match --summarize "$t/whole.pdn" > "$t/whole.txt"
if ! diff "$t/whole.txt" "$t/match/summary.txt"; then
	echo "slurm-test: the joined shards differ from the whole match" >&2
	exit 1
fi
cat "$t/match/summary.txt"

echo "== datagen in 2 shards through Slurm"
gen_args="--games 6 --nodes 300 --max-plies 120 --egdb none --seed 4 --openings $PWD/tools/data/openings.fen"
scripts/datagen-slurm --shards 2 --out "$t/data" --tool ./datagen --wait -- $gen_args >/dev/null
./datagen gen --out "$t/whole.psdata" $gen_args --quiet
if ! cmp "$t/whole.psdata" "$t/data/data.psdata"; then
	echo "slurm-test: the joined shards differ from the unsharded run" >&2
	exit 1
fi
./datagen info "$t/data/data.psdata" | sed -n 2p
echo "slurm-test: 3 passed, 0 failed"
