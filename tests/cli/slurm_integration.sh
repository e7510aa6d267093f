#!/usr/bin/env bash
# The real slurmctld (Debian's slurm-wlm) reads the slurm.conf and topology.conf that
# `clusterplanner-cli export --slurm` writes for the shared-cluster sample, and
# `scontrol show topology` lists the plan's switches. Everything runs in a scratch directory
# (its own munge key, socket and state) and is stopped by pid. Skipped (exit 77) without
# slurmctld and munged: apt install slurmctld munge.
set -u
CLI=$1
SAMPLE=$2
SLURMCTLD=$(command -v slurmctld || echo /usr/sbin/slurmctld)
MUNGED=$(command -v munged || echo /usr/sbin/munged)
SCONTROL=$(command -v scontrol || echo /usr/bin/scontrol)
if [ ! -x "$SLURMCTLD" ] || [ ! -x "$MUNGED" ] || [ ! -x "$SCONTROL" ]; then
    echo "slurmctld, munged or scontrol not installed: skipped"
    exit 77
fi
dir=$(mktemp -d)
munged_pid="" ctld_pid=""
cleanup() {
    [ -n "$ctld_pid" ] && kill "$ctld_pid" 2>/dev/null
    [ -f "$dir/munged.pid" ] && kill "$(cat "$dir/munged.pid")" 2>/dev/null
    sleep 0.2
    rm -rf "$dir"
}
trap cleanup EXIT
"$CLI" export "$SAMPLE" --slurm "$dir/generated" > /dev/null || { echo "export failed"; exit 1; }
head -c 1024 /dev/urandom > "$dir/munge.key"
chmod 400 "$dir/munge.key"
"$MUNGED" -f --key-file="$dir/munge.key" --socket="$dir/munge.sock" --pid-file="$dir/munged.pid" \
    --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" || { echo "munged failed"; exit 1; }
port=$((20000 + $$ % 20000))
mkdir -p "$dir/state" "$dir/spool"
{
    echo "ClusterName=cptest"
    echo "SlurmctldHost=localhost"
    echo "SlurmctldPort=$port"
    echo "SlurmdPort=$((port + 1))"
    echo "AuthType=auth/munge"
    echo "AuthInfo=socket=$dir/munge.sock"
    echo "CredType=cred/munge"
    echo "SlurmUser=$(id -un)"
    echo "StateSaveLocation=$dir/state"
    echo "SlurmdSpoolDir=$dir/spool"
    echo "SlurmctldPidFile=$dir/slurmctld.pid"
    echo "SlurmctldLogFile=$dir/slurmctld.log"
    # The generated lines, every node reached at the loopback address.
    sed 's/ State=UNKNOWN/ NodeAddr=127.0.0.1 State=UNKNOWN/' "$dir/generated/slurm.conf"
} > "$dir/slurm.conf"
cp "$dir/generated/topology.conf" "$dir/topology.conf"
timeout 60 "$SLURMCTLD" -D -f "$dir/slurm.conf" > "$dir/slurmctld.out" 2>&1 &
ctld_pid=$!
topology=""
for _ in $(seq 1 40); do
    topology=$(SLURM_CONF="$dir/slurm.conf" timeout 5 "$SCONTROL" show topology 2>/dev/null) && break
    sleep 0.5
done
if [ -z "$topology" ]; then
    echo "scontrol show topology gave nothing; slurmctld said:"
    tail -20 "$dir/slurmctld.out" "$dir/slurmctld.log" 2>/dev/null
    exit 1
fi
echo "$topology"
status=0
for expected in "SwitchName=su0 .*Nodes=compute-\[0001-0032\]" "SwitchName=su7 .*Nodes=dev-\[0225-0256\]" \
                "SwitchName=spine .*Switches=su0,su1,su2,su3,su4,su5,su6,su7"; do
    if ! grep -Eq "$expected" <<< "$topology"; then
        echo "missing from scontrol show topology: $expected"
        status=1
    fi
done
# The partition the sample's interactive class is confined to.
partition=$(SLURM_CONF="$dir/slurm.conf" timeout 5 "$SCONTROL" show partition dev 2>&1)
echo "$partition"
if ! grep -Eq "Nodes=dev-\[0225-0256\]" <<< "$partition"; then
    echo "missing from scontrol show partition dev: Nodes=dev-[0225-0256]"
    status=1
fi
exit $status
