#!/usr/bin/env bash
# make ez-demo: encryption zones with real processes on loopback — a Hadoop KMS (hadoop-kms 2.7.3's
# web application in Jetty, its own process), an NVM NameNode whose key provider is that KMS, a
# DataNode, and clients using the stock tools (hadoop key, hdfs crypto, hdfs dfs). A key is created
# in the KMS, a zone on /secure, files written into it (one of several blocks); the client reads
# them back decrypted while /.reserved/raw serves the ciphertext; the NameNode is SIGKILLed and
# restarted on the same region: the zone, each file's encryption info (the same raw xattr bytes)
# and so the decrypted content come back, with an inode cache of 4 files so the files are cold;
# a second zone is created after the restart and survives another SIGKILL. Exits non-zero on any
# failure.
set -euo pipefail
source "$(dirname "$0")/../cluster-lib.sh"
require_dist

KMS_LIB="$NVM_ROOT/nvm-dist/target/kms-lib"
[ -d "$KMS_LIB" ] || { echo "missing $KMS_LIB: run 'make build' first" >&2; exit 1; }
# Hadoop 2.7.3's client crypto streams link sun.misc.Cleaner, which JDK 17 does not have: every close
# of a stream in a zone throws NoSuchMethodError (after the stream itself is closed). The test
# harness's agent empties that one method (nvm-it CryptoStreamsAgent); only the client JVMs here
# run with it. On JDK 8 the stock tools need nothing.
AGENT=$(ls "$NVM_ROOT"/nvm-it/target/nvm-it-*-jdk17-agent.jar 2>/dev/null | sed -n 1,1p)
[ -n "$AGENT" ] || { echo "missing nvm-it/target/nvm-it-*-jdk17-agent.jar: run 'make build' first" >&2; exit 1; }

work=$(mktemp -d /tmp/nvm-ez-demo.XXXXXX)
shm=$(mktemp -d /dev/shm/nvm-ez-demo.XXXXXX)
conf="$work/conf"
NN_PID= DN_PID= KMS_PID=
cleanup() { stop_pid "$DN_PID"; stop_pid "$NN_PID"; stop_pid "$KMS_PID"; rm -rf "$shm"; echo "(logs kept in $work)"; }
trap cleanup EXIT
export HJAVA_HEAP=${HJAVA_HEAP:--Xmx512m}

step() { printf '\n== %s\n' "$*"; }
fail() { echo "FAILED: $*" >&2; exit 1; }
indent() { sed 's/^/   /'; }
logline() { sed -E 's/^[0-9:,]+ [A-Z]+ [A-Za-z0-9$]+: //; s/^/   log: /'; }

# client commands: the stock tools, each a JVM with the agent
ez() { NVM_JAVA_OPTS="-javaagent:$AGENT" hclient "$conf" "$@"; }
dfs() { echo "   \$ hdfs dfs $*" >&2; ez org.apache.hadoop.fs.FsShell "$@"; }
crypto() { echo "   \$ hdfs crypto $*" >&2; ez org.apache.hadoop.hdfs.tools.CryptoAdmin "$@"; }
keyshell() { echo "   \$ hadoop key $*" >&2; ez org.apache.hadoop.crypto.key.KeyShell "$@"; }
sha() { sha256sum | cut -c1-16; }

step "1. a KMS in its own process: hadoop-kms 2.7.3 (KMSWebApp in Jetty, keys in a JCEKS keystore)"
free_ports kms_port
mkdir -p "$work/kms"
# JAXB (Jersey's WADL) defines classes by reflection: java.lang opened, as in the tests' argLine
(cd "$work" && exec java -Xmx256m -Djava.net.preferIPv4Stack=true --add-opens java.base/java.lang=ALL-UNNAMED \
  -cp "$NVM_LIB/*:$KMS_LIB/*" \
  org.nvmnn.workload.KmsServer --conf-dir "$work/kms" --port "$kms_port") > "$work/kms.log" 2>&1 &
KMS_PID=$!
for _ in $(seq 1 300); do
  grep -q "^KMS running at" "$work/kms.log" && break
  kill -0 "$KMS_PID" 2>/dev/null || { tail -20 "$work/kms.log" >&2; fail "the KMS exited"; }
  sleep 0.2
done
grep -q "^KMS running at" "$work/kms.log" || fail "the KMS did not start"
kms_url=$(sed -n 's/^KMS running at //p' "$work/kms.log")
provider="kms://http@localhost:$kms_port/kms"
echo "   KMS (pid $KMS_PID) at $kms_url; key provider URI $provider"

step "2. configure: NVM mode (region $shm/namespace.region), the KMS as key provider"
write_conf "$conf" "$work/name" "$work/data" true "$shm/namespace.region"
ez_conf=(
  "core-site.xml hadoop.security.key.provider.path $provider"
  "hdfs-site.xml dfs.encryption.key.provider.uri $provider"
  "hdfs-site.xml dfs.blocksize 1048576"
  "hdfs-site.xml dfs.namenode.nvm.cache.inodes 4"
  "hdfs-site.xml dfs.namenode.safemode.extension 0"
)
for s in "${ez_conf[@]}"; do
  read -r f k v <<< "$s"
  conf_put "$conf/$f" "$k" "$v"
  printf '   %-13s %-38s %s\n' "$f" "$k" "$v"
done

# await_nn — until the NameNode answers, has left safe mode and has its DataNode (one probing JVM)
await_nn() {
  local out
  out=$(hclient "$conf" org.nvmnn.workload.ReadyProbe --pid "$NN_PID" --datanodes 1 --timeout-seconds 120) || true
  grep -q '^safemode-off' <<<"$out" || { tail -20 "$conf/logs/namenode.log" >&2; fail "the NameNode did not come up"; }
}

step "3. format; start the NameNode and a DataNode"
nn_format "$conf" || { tail -20 "$conf/format.log" >&2; fail "format"; }
nn_start "$conf"; dn_start "$conf"
await_nn
echo "   NameNode pid $NN_PID serving, DataNode pid $DN_PID registered"
{ grep -h "NVM namesystem loaded" "$conf/logs/namenode.log" || true; } | sed -n 1,1p | logline
grep -q "NVM namesystem loaded" "$conf/logs/namenode.log" || fail "the NameNode is not in NVM mode"

step "4. a key in the KMS; an encryption zone on /secure"
keyshell create demokey 2>&1 | grep -v "^$" | indent
keyshell create otherkey > /dev/null 2>&1
dfs -mkdir -p /secure /plain
crypto -createZone -keyName demokey -path /secure | indent
crypto -listZones | indent

step "5. files into the zone (one of 5.5 MiB: 6 blocks of 1 MiB) and one outside it"
head -c 5767168 /dev/urandom > "$work/big.bin"
printf 'the secret text of the demo\n' > "$work/small.txt"
for i in $(seq 1 8); do echo "file $i of the zone" > "$work/f$i.txt"; done
dfs -put "$work/big.bin" "$work/small.txt" /secure/
dfs -put "$work"/f?.txt /secure/
dfs -put "$work/small.txt" /plain/
big_sha=$(sha < "$work/big.bin"); small_sha=$(sha < "$work/small.txt")
dfs -ls /secure | indent

cat "$work/big.bin" "$work/small.txt" "$work"/f?.txt > "$work/all.local"
all_sha=$(sha < "$work/all.local")
# check LABEL: every zone file read back decrypted equals the local one, its raw bytes do not
check() {
  local got raw
  got=$(ez org.apache.hadoop.fs.FsShell -cat /secure/big.bin /secure/small.txt '/secure/f?.txt' | sha)
  raw=$(ez org.apache.hadoop.fs.FsShell -cat /.reserved/raw/secure/big.bin /.reserved/raw/secure/small.txt \
    '/.reserved/raw/secure/f?.txt' | sha)
  echo "   the 10 files of /secure read back: sha256 $got (local files: $all_sha); their raw bytes: $raw"
  [ "$got" = "$all_sha" ] || fail "$1: the decrypted content differs"
  [ "$raw" != "$all_sha" ] || fail "$1: the raw bytes are the plaintext"
}
# feinfo: each zone file's raw.hdfs.crypto.file.encryption.info (encrypted key, IV, key version)
feinfo() {
  ez org.apache.hadoop.fs.FsShell -getfattr -n raw.hdfs.crypto.file.encryption.info -e hex '/.reserved/raw/secure/*' \
    | awk '/^# file: / {f = $3} /^raw.hdfs.crypto.file.encryption.info=/ {sub(/^[^=]*=/, ""); print f, $0}'
}
step "6. read back through the client: decrypted; /.reserved/raw serves the ciphertext"
check "before the kill"
before_fei=$(feinfo)
[ "$(echo "$before_fei" | grep -c .)" = 10 ] || fail "not 10 files with encryption info: $before_fei"
echo "$before_fei" | sed -n 1,3p | sed -E 's#^/.reserved/raw([^ ]+) (.{42}).*#   \1 raw.hdfs.crypto.file.encryption.info \2...#'
echo "   ... (10 files)"
echo "   moving a file out of the zone is refused, as by the stock NameNode:"
echo "   \$ hdfs dfs -mv /secure/small.txt /plain/moved.txt"
if ez org.apache.hadoop.fs.FsShell -mv /secure/small.txt /plain/moved.txt > /dev/null 2>&1; then fail "a file left the zone"; fi
grep -o "^mv: .*can't be moved from an encryption zone.*" "$conf/logs/client.log" | tail -1 | indent
grep -q "can't be moved from an encryption zone" "$conf/logs/client.log" || fail "no refusal message"
zones_before=$(crypto -listZones 2>/dev/null)

kill_restart() {
  local old=$NN_PID t0
  kill_hard "$NN_PID"
  echo "   NameNode $old killed (SIGKILL)"
  local logged; logged=$(wc -l < "$conf/logs/namenode.log")
  t0=$(date +%s.%N)
  nn_start "$conf"
  await_nn
  echo "   restarted NameNode (pid $NN_PID) on the same region: serving, safe mode off, after $(python3 -c "import time; print('%.1f' % (time.time() - $t0))") s"
  tail -n +$((logged + 1)) "$conf/logs/namenode.log" | { grep -h "NVM region recovered" || true; } | tail -1 \
    | sed 's/; RecoveryReport{.*//' | logline
  tail -n +$((logged + 1)) "$conf/logs/namenode.log" | grep "NVM region recovered" > /dev/null || fail "the NameNode did not recover from the region"
}

step "7. kill -9 the NameNode; restart it"
kill_restart

step "8. after the restart: the zone, each file's encryption info, the decrypted content"
zones_after=$(crypto -listZones 2>/dev/null)
echo "$zones_after" | indent
[ "$zones_after" = "$zones_before" ] || fail "the zone list changed: $zones_before -> $zones_after"
after_fei=$(feinfo)
[ "$after_fei" = "$before_fei" ] || fail "the encryption info changed"
echo "   the raw encryption-info xattr of each file: the same bytes as before the kill"
check "after the restart"

step "9. a second zone after the restart (another key), a file in it; kill -9 again"
dfs -mkdir /secure2
crypto -createZone -keyName otherkey -path /secure2 | indent
dfs -put "$work/small.txt" /secure2/
kill_restart
zones=$(crypto -listZones 2>/dev/null)
echo "$zones" | indent
grep -q "^/secure2 *otherkey" <<<"$zones" || fail "the second zone is gone"
got=$(ez org.apache.hadoop.fs.FsShell -cat /secure2/small.txt /.reserved/raw/secure2/small.txt)
echo "   /secure2/small.txt, then its raw bytes:"
printf '%.200s\n' "$got" | cat -v | indent
[ "$(echo "$got" | sed -n 1,1p)" = "the secret text of the demo" ] || fail "/secure2/small.txt"
[ "$(echo "$got" | tail -n +2 | grep -c "the secret text")" = 0 ] || fail "the raw bytes of /secure2/small.txt are the plaintext"
check "after the second restart"

echo
echo "RESULT: encryption zones and each file's encryption info came back from the region after kill -9; the client read every file decrypted"
