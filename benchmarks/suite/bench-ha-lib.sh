#!/usr/bin/env bash
# The suite's HA configurations, sourced by bench-lib.sh: an HA pair of processes on loopback
# built with scripts/ha-lib.sh — a ZooKeeper, three JournalNodes, nn1 and nn2 of nameservice "ha"
# with a ZKFC each (automatic failover), one DataNode — whose clients reach hdfs://ha through
# ConfiguredFailoverProxyProvider (docs/benchmarks.md, "HA configurations"):
#   stock-ha-disk    stock NameNodes, name dirs (fsimage + local edits) on the local disk, as
#                    stock-disk; the JournalNodes' edits on the local disk
#   stock-ha-tmpfs   stock NameNodes, name dirs on tmpfs, as stock-tmpfs; the JournalNodes' edits
#                    on tmpfs
#   nvm-ha-disk      NVM NameNodes as nvm-emulated (regions on tmpfs, persist.mode=emulated,
#                    PMEM_IS_PMEM_FORCE=1, name dirs on the local disk); the JournalNodes' edits on
#                    the local disk
#   nvm-ha-tmpfs     as nvm-ha-disk, the JournalNodes' edits on tmpfs
#   nvm-disk-ha-disk NVM NameNodes as nvm-disk (persist.mode=disk: each region and its write-ahead
#                    log on the local disk, in WORK/data/regions; no PMEM_IS_PMEM_FORCE); the
#                    JournalNodes' edits on the local disk
# Replication 1 and one DataNode, as in the other configurations. Every process shares the
# machine's CPUs with the active NameNode (the standby tails the journal every second).
# The waits poll the NameNodes' /jmx servlet (ha_poll.py: no JVM per poll).

HA_CONFIGS=$($BENCH_CONFIGS names --ha)
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/ha-lib.sh"
HA_POLL="python3 $(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/ha_poll.py"
HA_ACTIVE= HA_STANDBY=

is_ha_config() { case $1 in *-ha-*) return 0 ;; *) return 1 ;; esac; }

# ha_bench_conf CFG WORK REGION_GB [SHM] — the conf dirs of every process under WORK
# (ha_write_confs: new ports), the tmpfs parts in SHM or a new directory under SHM_BASE (CFG_TMP);
# sets CLUSTER_CONF (the client's). The regions: in CFG_TMP (tmpfs), or for a region on the disk
# (CFG_REGION_ON=disk) in WORK/data/regions, beside the rest of the pair's state (a copy of
# WORK/data holds them: wl-ha-timings.sh). Exports NVM_PERSIST for cluster-lib's hjava: disk for a
# region on the disk (the NameNodes run without PMEM_IS_PMEM_FORCE), emulated otherwise.
ha_bench_conf() {
  local cfg=$1 work=$2 gb=$3 role site i regions
  config_vars "$cfg" || return 2
  CFG_TMP=${4:-$(mktemp -d "$SHM_BASE/nvmbench.XXXXXX")}
  regions=$CFG_TMP NVM_PERSIST=emulated
  if [ "$CFG_REGION_ON" = disk ]; then regions=$work/data/regions NVM_PERSIST=disk; mkdir -p "$regions"; fi
  export NVM_PERSIST
  ha_write_confs "$work" "$regions" "$CFG_NVM" "$CFG_NVM"
  for role in "${HA_NNS[@]}" "${HA_JNS[@]}" "${HA_DNS[@]}" client; do
    site=$(ha_conf "$role")/hdfs-site.xml
    conf_put "$site" dfs.replication 1
    case $role in
      nn*)
        conf_put "$site" dfs.namenode.nvm.region.size "${gb}g"
        for ((i = 0; i < ${#CFG_CONF[@]}; i += 2)); do conf_put "$site" "${CFG_CONF[i]}" "${CFG_CONF[i + 1]}"; done
        [ "$CFG_NAME_ON" != tmpfs ] || conf_put "$site" dfs.namenode.name.dir "file://$CFG_TMP/$role/name" ;;
      jn*) [ "$CFG_JN_ON" != tmpfs ] || conf_put "$site" dfs.journalnode.edits.dir "$CFG_TMP/$role/edits" ;;
    esac
  done
  CLUSTER_CONF=$(ha_conf client)
}

# ha_http NN — the NameNode's HTTP address (its /jmx).
ha_http() { conf_get "$(ha_conf client)/hdfs-site.xml" "dfs.namenode.http-address.$HA_NS.$1"; }

# ha_until NN TIMEOUT [--state S] [--txid N] — until NN reports S (and has applied N); prints
# ha_poll's "reached <ms> ..." line. Fails, with the tail of NN's log, if NN exits or time runs out.
ha_until() {
  local nn=$1 timeout=$2 out pid=(); shift 2
  [ -z "${HA_PID[$nn]:-}" ] || pid=(--pid "${HA_PID[$nn]}")
  if out=$($HA_POLL until "$(ha_http "$nn")" "${pid[@]}" --timeout "$timeout" "$@"); then
    echo "$out"; return 0
  fi
  echo "$nn: $out (waiting for $*)" >&2; ha_show_log "$nn" 20; return 1
}

# ha_wait_pair TIMEOUT — until one NameNode is active and the other standby; sets HA_ACTIVE and
# HA_STANDBY. Either may win the election (a NameNode whose region waits for the journal to decide
# a segment it wrote as active, docs/ha.md §3, only starts once the other became active).
ha_wait_pair() {
  local deadline=$(( $(date +%s) + $1 )) s1 s2 nn
  while [ "$(date +%s)" -lt "$deadline" ]; do
    for nn in "${HA_NNS[@]}"; do
      ha_alive "$nn" || { echo "$nn exited during start-up" >&2; ha_show_log "$nn" 30; return 1; }
    done
    s1=$($HA_POLL state "$(ha_http nn1)"); s2=$($HA_POLL state "$(ha_http nn2)")
    if [ "$s1/$s2" = active/standby ]; then HA_ACTIVE=nn1 HA_STANDBY=nn2; return 0; fi
    if [ "$s1/$s2" = standby/active ]; then HA_ACTIVE=nn2 HA_STANDBY=nn1; return 0; fi
    sleep 0.2
  done
  echo "no active/standby pair after $1 s: nn1 $s1, nn2 $s2" >&2
  ha_show_log nn1 15; ha_show_log nn2 15; ha_show_log zkfc1 10; ha_show_log zkfc2 10; return 1
}

# ha_nn_launch NN — a NameNode of the pair, with the suite's NameNode heap (NN_HEAP_OPT, -Xmx4g);
# PMEM_IS_PMEM_FORCE as hjava sets it from NVM_PERSIST (ha_bench_conf).
ha_nn_launch() { HJAVA_HEAP=${NN_HEAP_OPT:--Xmx4g} ha_nn_start "$1"; }

# ha_bench_ready CFG — one DataNode, then until the active NameNode (through hdfs://ha) has left
# safe mode with it registered; checks that both NameNodes run in CFG's mode (NVM or stock) and
# that NVM NameNodes run in the persist.mode CFG sets (their NvmNamespace bean's PersistMode).
ha_bench_ready() {
  local out nn want= got i
  ha_dn_start dn1
  out=$(hclient "$CLUSTER_CONF" org.nvmnn.workload.ReadyProbe --datanodes 1 --timeout-seconds 120 || true)
  grep -q '^safemode-off' <<<"$out" || { echo "HA cluster for $1 did not come up: $out (logs in $HA_WORK/conf)" >&2; return 1; }
  for nn in "${HA_NNS[@]}"; do check_mode "$1" "$(ha_log "$nn")" || return 1; done
  config_vars "$1" || return 2
  for ((i = 0; i < ${#CFG_CONF[@]}; i += 2)); do
    [ "${CFG_CONF[i]}" != dfs.namenode.nvm.persist.mode ] || want=${CFG_CONF[i + 1]}
  done
  [ "$CFG_NVM" = true ] && [ -n "$want" ] || return 0
  for nn in "${HA_NNS[@]}"; do
    got=$($HA_POLL mode "$(ha_http "$nn")")
    [ "$got" = "$want" ] || { echo "$1: $nn runs in persist.mode '$got', not '$want'" >&2; return 1; }
  done
}

# ha_bench_up CFG WORK REGION_GB — configures (ha_bench_conf), formats and starts the pair as
# make ha-demo does: ZooKeeper, the JournalNodes, -formatZK, nn1 -format, nn1 and its ZKFC until
# nn1 is active, nn2 -bootstrapStandby, nn2 and its ZKFC until standby; then the DataNode.
ha_bench_up() {
  local cfg=$1 work=$2 gb=${3:-1}
  ha_bench_conf "$cfg" "$work" "$gb"
  zk_start || return 1
  HJAVA_HEAP=-Xmx512m jn_start_all || return 1
  zk_format || return 1
  nn_format_shared || return 1
  ha_nn_launch nn1; zkfc_start nn1
  ha_until nn1 120 --state active > /dev/null || return 1
  nn_bootstrap nn2 || return 1
  ha_nn_launch nn2; zkfc_start nn2
  ha_until nn2 120 --state standby > /dev/null || return 1
  HA_ACTIVE=nn1 HA_STANDBY=nn2
  ha_bench_ready "$cfg"
}

# ha_bench_restart CFG — starts the pair configured earlier on the state in its directories (a
# snapshot restored): a new ZooKeeper (-formatZK), the JournalNodes, both NameNodes and their
# ZKFCs at once, until one is active and the other standby; then the DataNode.
ha_bench_restart() {
  rm -rf "$HA_WORK/data/zk"
  zk_start || return 1
  zk_format || return 1
  HJAVA_HEAP=-Xmx512m jn_start_all || return 1
  ha_nn_launch nn1; ha_nn_launch nn2
  zkfc_start nn1; zkfc_start nn2
  ha_wait_pair 300 || return 1
  ha_bench_ready "$1"
}

# ha_bench_down — stops every process of the pair (newest first: the NameNodes before the
# JournalNodes) and forgets them.
ha_bench_down() {
  ha_stop_all
  HA_PID=() HA_STARTED=() HA_ACTIVE= HA_STANDBY=
}

# ha_keep_logs WORKLOAD PREFIX — the NameNodes', ZKFCs' and first JournalNode's logs into the
# results directory.
ha_keep_logs() {
  local role
  for role in nn1 nn2 zkfc1 zkfc2 jn1; do keep_log "$(ha_log "$role")" "$1" "$2-$role.log"; done
}
