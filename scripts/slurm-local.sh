#!/usr/bin/env bash
# A one-node SLURM cluster on this machine, for trying gridrun's slurm executor and for CI.
#
#   scripts/slurm-local.sh start    install slurm-wlm and munge when missing, write /etc/slurm/slurm.conf,
#                                   start munged, slurmctld and slurmd, wait until the node is idle
#   scripts/slurm-local.sh stop     stop slurmd and slurmctld (and munged when this script started it)
#   scripts/slurm-local.sh status   the daemons, sinfo and squeue
#
# Runs as root (the daemons run as root; SlurmUser=root). No systemd needed: the daemons are started directly.
# Environment: SLURM_LOCAL_TIMEOUT (seconds to wait for the node, default 60). See docs/slurm.md.
set -euo pipefail

readonly CONF=/etc/slurm/slurm.conf
readonly HEADER='# Written by gridrun scripts/slurm-local.sh, again on each start: change the script, not this file.'
readonly LOG_DIR=/var/log/slurm
readonly CTLD_LOG=$LOG_DIR/slurmctld.log
readonly SLURMD_LOG=$LOG_DIR/slurmd.log
readonly CTLD_PID=/run/slurmctld.pid
readonly SLURMD_PID=/run/slurmd.pid
readonly MUNGE_KEY=/etc/munge/munge.key
readonly MUNGE_PID=/run/munge/munged.pid
readonly MUNGE_MARK=/run/munge/started-by-gridrun
readonly TIMEOUT=${SLURM_LOCAL_TIMEOUT:-60}

say() { printf 'slurm-local: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

usage() {
  say "usage: $0 start|stop|status"
  exit 2
}

require_root() {
  [ "$(id -u)" = 0 ] || die "run as root (the daemons and /etc/slurm need it): sudo $0 $1"
}

# True when the pid file names a live process whose command is $2 (a stale file may name a reused pid).
running() {
  local pid
  [ -r "$1" ] || return 1
  pid=$(cat "$1" 2>/dev/null) || return 1
  [ -n "$pid" ] && [ -r "/proc/$pid/comm" ] && [ "$(cat "/proc/$pid/comm")" = "$2" ]
}

sinfo_answers() {
  timeout 5 sinfo -h >/dev/null 2>&1
}

# The state of this one node as sinfo prints it (idle, mixed, down*, drained, ...), or nothing.
node_state() {
  timeout 5 sinfo -h -N -o '%T' 2>/dev/null | head -n 1 || true
}

node_usable() {
  case "$(node_state)" in
    idle | mixed | allocated | completing) return 0 ;;
    *) return 1 ;;
  esac
}

install_packages() {
  if [ -x /usr/sbin/slurmctld ] && [ -x /usr/sbin/slurmd ] && [ -x /usr/bin/sbatch ] && [ -x /usr/sbin/munged ]; then
    return
  fi
  command -v apt-get >/dev/null 2>&1 || die "slurm-wlm and munge are missing and there is no apt-get to install them"
  say "installing slurm-wlm and munge (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  # Lists that are fresh enough (CI has just updated them) save an update; stale or missing ones need it.
  if ! apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null 2>&1; then
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
  fi
}

munge_works() {
  munge -n 2>/dev/null | unmunge >/dev/null 2>&1
}

start_munge() {
  getent passwd munge >/dev/null || die "no 'munge' user; reinstall the munge package"
  install -d -o munge -g munge -m 0700 /etc/munge /var/lib/munge /var/log/munge
  install -d -o munge -g munge -m 0755 /run/munge
  if [ ! -s "$MUNGE_KEY" ]; then
    say "creating the munge key $MUNGE_KEY"
    dd if=/dev/urandom of="$MUNGE_KEY" bs=1024 count=1 status=none
  fi
  chown munge:munge "$MUNGE_KEY"
  chmod 0400 "$MUNGE_KEY"
  if munge_works; then
    say "munged already running"
    return
  fi
  say "starting munged"
  runuser -u munge -- /usr/sbin/munged
  touch "$MUNGE_MARK"
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    munge_works && return
    sleep 0.5
  done
  tail -n 20 /var/log/munge/munged.log >&2 || true
  die "munged does not answer (munge -n | unmunge failed); its log is above"
}

# Moves a slurm.conf that this script did not write out of the way, naming where it went.
backup_foreign_config() {
  [ -e "$CONF" ] || return 0
  [ "$(head -n 1 "$CONF")" = "$HEADER" ] && return 0
  local backup
  backup="$CONF.before-gridrun.$(date +%Y%m%d-%H%M%S)"
  mv "$CONF" "$backup"
  say "your $CONF was not written by this script: moved to $backup"
}

# Prints "<key>=<value>" of slurmd -C's NodeName line, e.g. hardware CPUs.
hardware() {
  printf '%s\n' "$HARDWARE" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

write_config() {
  local host cpus memory
  host=$(hostname -s)
  HARDWARE=$(slurmd -C 2>/dev/null | head -n 1)
  cpus=$(hardware CPUs)
  memory=$(hardware RealMemory)
  if [ -z "$cpus" ] || [ -z "$memory" ]; then
    die "slurmd -C printed no CPUs and RealMemory: '$HARDWARE'"
  fi
  backup_foreign_config
  install -d -m 0755 /etc/slurm "$LOG_DIR"
  install -d -m 0755 /var/spool/slurmctld /var/spool/slurmd
  cat >"$CONF" <<EOF
$HEADER
# A one-node cluster for gridrun: this host is controller and compute node. Hardware from 'slurmd -C'.
ClusterName=gridrun
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
# Every logical CPU is allocatable on its own; memory is counted too, DefMemPerCPU when a job asks for none.
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
DefMemPerCPU=$((memory / cpus))
# A node that comes back with a valid configuration is used again; jobs may be requeued.
ReturnToService=2
JobRequeue=1
# Quicker than a real cluster, for tests: a requeued job may start again 31s after it left (default 121s), and
# the scheduler looks at pending jobs every 5s (default 60s).
AuthInfo=cred_expire=30
SchedulerParameters=sched_interval=5
MailProg=/bin/true
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=$CTLD_PID
SlurmdPidFile=$SLURMD_PID
SlurmctldLogFile=$CTLD_LOG
SlurmdLogFile=$SLURMD_LOG
NodeName=$host NodeAddr=127.0.0.1 $(printf '%s\n' "$HARDWARE" | cut -d' ' -f2-) State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  say "wrote $CONF: node $host, $cpus CPUs, ${memory} MB, partition debug"
}

log_tails() {
  local log
  for log in "$CTLD_LOG" "$SLURMD_LOG"; do
    if [ -r "$log" ]; then
      say "last lines of $log:"
      tail -n 15 "$log" >&2
    fi
  done
}

start_daemon() {
  local name=$1 pid_file=$2
  if running "$pid_file" "$name"; then
    say "$name already running (pid $(cat "$pid_file"))"
    return
  fi
  say "starting $name"
  "/usr/sbin/$name" || { log_tails; die "$name did not start; its log is above"; }
}

# A drained node stays drained across restarts (a job whose processes would not die drains it, for one); a
# node of this script's own cluster is put back to work, saying why it was out.
resume_if_drained() {
  local host reason
  host=$(hostname -s)
  [ "$(head -n 1 "$CONF" 2>/dev/null)" = "$HEADER" ] || return 0
  case "$(node_state)" in
    drain*)
      reason=$(timeout 5 scontrol show node "$host" 2>/dev/null | sed -n 's/^ *Reason=//p' || true)
      say "node $host is $(node_state) (Reason=${reason:-none}); resuming it"
      timeout 5 scontrol update nodename="$host" state=resume || true
      ;;
  esac
}

wait_for_node() {
  local waited=0
  until node_usable; do
    if [ "$waited" = 3 ]; then
      resume_if_drained
    fi
    if [ "$waited" -ge "$TIMEOUT" ]; then
      say "the node is not idle after ${TIMEOUT}s; sinfo says: $(node_state || true)"
      timeout 5 scontrol show node 2>/dev/null | grep -E 'State=|Reason=' >&2 || true
      log_tails
      die "SLURM did not come up; fix the cause above, then: $0 stop; $0 start"
    fi
    sleep 1
    waited=$((waited + 1))
  done
}

start() {
  local began=$SECONDS
  require_root start
  install_packages
  if sinfo_answers && node_usable; then
    say "already running: node $(hostname -s) is $(node_state)"
    return
  fi
  start_munge
  if ! running "$CTLD_PID" slurmctld; then
    write_config
  fi
  start_daemon slurmctld "$CTLD_PID"
  start_daemon slurmd "$SLURMD_PID"
  wait_for_node
  say "SLURM is up in $((SECONDS - began))s: node $(hostname -s) is $(node_state); logs in $LOG_DIR; stop with $0 stop"
}

stop_daemon() {
  local name=$1 pid_file=$2 pid
  if ! running "$pid_file" "$name"; then
    say "$name is not running"
    return
  fi
  pid=$(cat "$pid_file")
  kill "$pid"
  for _ in $(seq 1 20); do
    running "$pid_file" "$name" || { say "stopped $name (pid $pid)"; return; }
    sleep 0.5
  done
  die "$name (pid $pid) is still running 10s after SIGTERM"
}

stop() {
  require_root stop
  stop_daemon slurmd "$SLURMD_PID"
  stop_daemon slurmctld "$CTLD_PID"
  if [ -e "$MUNGE_MARK" ]; then
    stop_daemon munged "$MUNGE_PID"
    rm -f "$MUNGE_MARK"
  fi
}

status() {
  local name pid_file
  for name in slurmctld slurmd; do
    pid_file=/run/$name.pid
    if running "$pid_file" "$name"; then
      echo "$name: running (pid $(cat "$pid_file"))"
    else
      echo "$name: not running"
    fi
  done
  if ! sinfo_answers; then
    say "sinfo does not answer; start SLURM with: $0 start"
    exit 1
  fi
  sinfo
  squeue
}

[ $# = 1 ] || usage
case "$1" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) usage ;;
esac
