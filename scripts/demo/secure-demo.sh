#!/usr/bin/env bash
# make secure-demo: a Kerberos cluster of real processes on loopback — a KDC (Hadoop 2.7.3's
# MiniKdc, in a process of its own), an NVM NameNode and a DataNode, each with its own principal,
# SASL on data transfer, HTTPS only, block access tokens. A client logs in from a keytab and
# writes a delegation token to a file; a client run with ONLY that file (HADOOP_TOKEN_FILE_LOCATION,
# no keytab, no ticket cache) writes and reads files; the NameNode is SIGKILLed and restarted on
# the same region, and the token-only client goes on with the same token file (the token and its
# master key come back from the region); the keytab client renews the token, then cancels it, and
# after another SIGKILL and restart the token is refused. Exits non-zero on any failure.
set -euo pipefail
source "$(dirname "$0")/../cluster-lib.sh"
require_dist

REALM=EXAMPLE.COM
NN=nn/localhost@$REALM DN=dn/localhost@$REALM HTTP=HTTP/localhost@$REALM CLIENT=client@$REALM
work=$(mktemp -d /tmp/nvm-secure-demo.XXXXXX)
shm=$(mktemp -d /dev/shm/nvm-secure-demo.XXXXXX)
conf="$work/conf" keytab="$work/demo.keytab" tokens="$work/client.token"
NN_PID= DN_PID= KDC_PID=
cleanup() { stop_pid "$DN_PID"; stop_pid "$NN_PID"; stop_pid "$KDC_PID"; rm -rf "$shm"; echo "(logs kept in $work)"; }
trap cleanup EXIT

step() { printf '\n== %s\n' "$*"; }
fail() { echo "FAILED: $*" >&2; exit 1; }
indent() { sed 's/^/   /'; }
logline() { sed -E 's/^[0-9:,]+ [A-Z]+ [A-Za-z0-9$]+: //; s/^/   log: /'; }
now() { date +%s.%N; }
since() { python3 -c "import sys; print('%.1f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$1" "${2:-$(now)}"; }

# Every JVM below: the demo's krb5.conf; the sun.security.krb5 and sun.security.jgss exports that
# MiniKdc and hadoop-auth need on JDK 17 (they reach those classes by reflection); no ticket cache,
# so a client has Kerberos credentials only if it logs in from the keytab.
export KRB5CCNAME="FILE:$work/no-ticket-cache"
export NVM_JAVA_OPTS="-Djava.security.krb5.conf=$work/krb5.conf --add-exports java.security.jgss/sun.security.krb5=ALL-UNNAMED --add-exports java.security.jgss/sun.security.jgss=ALL-UNNAMED"
export HJAVA_HEAP=${HJAVA_HEAP:--Xmx512m}

# secure CMD ARGS... — SecureTokenClient: logs in from the keytab as $AS (default the client).
secure() { local cmd=$1; shift; hclient "$conf" org.nvmnn.workload.SecureTokenClient "$cmd" --principal "${AS:-$CLIENT}" --keytab "$keytab" "$@"; }
# token_only ARGS... — TokenOnlyClient with the token file ($TOKENS, default the first token) alone.
token_only() { HADOOP_TOKEN_FILE_LOCATION="${TOKENS:-$tokens}" hclient "$conf" org.nvmnn.workload.TokenOnlyClient "$@"; }

# await_nn LAUNCHED — until the NameNode answers (as the NameNode's principal, from the keytab),
# has left safe mode and has its DataNode; prints the seconds from LAUNCHED.
await_nn() {
  local out
  out=$(AS=$NN secure probe --pid "$NN_PID" --datanodes 1 --timeout-seconds 120) || true
  grep -q '^safemode-off' <<<"$out" || { echo "$out" | indent >&2; tail -20 "$conf/logs/namenode.log" >&2; fail "the NameNode did not come up"; }
  echo "$(since "$1" "$(awk '/^answered/ {printf "%.3f", $2 / 1000}' <<<"$out")") s to the first answer, $(since "$1" "$(awk '/^safemode-off/ {printf "%.3f", $2 / 1000}' <<<"$out")") s to safe mode off with the DataNode"
}

step "1. a Kerberos KDC in its own process: MiniKdc (hadoop-minikdc 2.7.3), realm $REALM"
free_ports kdc_port nn_https dn_https
mkdir -p "$work/kdc"
echo "kdc.port=$kdc_port" > "$work/kdc/kdc.properties"
# shellcheck disable=SC2086
kdc_main() { exec java -Xmx256m $NVM_JAVA_OPTS -cp "$NVM_LIB/*" org.apache.hadoop.minikdc.MiniKdc "$@"; }
kdc_main "$work/kdc" "$work/kdc/kdc.properties" "$keytab" nn/localhost dn/localhost HTTP/localhost client > "$work/kdc.log" 2>&1 &
KDC_PID=$!
for _ in $(seq 1 600); do
  grep -q "Standalone MiniKdc Running" "$work/kdc.log" && break
  kill -0 "$KDC_PID" 2>/dev/null || { tail -20 "$work/kdc.log" >&2; fail "the KDC exited"; }
  sleep 0.2
done
grep -q "Standalone MiniKdc Running" "$work/kdc.log" || fail "the KDC did not start"
echo "   KDC (pid $KDC_PID) at localhost:$kdc_port; principals $NN (NameNode), $DN (DataNode),"
echo "   $HTTP (SPNEGO), $CLIENT; their keys in $keytab"
# MiniKdc's ApacheDS 2.0.0-M15 does not know the RFC 8009 encryption types JDK 17 also asks for
# and answers every service-ticket request naming them with "Message stream modified (41)".
cat > "$work/krb5.conf" <<EOF
[libdefaults]
    default_realm = $REALM
    udp_preference_limit = 1
    default_tkt_enctypes = aes256-cts-hmac-sha1-96 aes128-cts-hmac-sha1-96
    default_tgs_enctypes = aes256-cts-hmac-sha1-96 aes128-cts-hmac-sha1-96
    permitted_enctypes = aes256-cts-hmac-sha1-96 aes128-cts-hmac-sha1-96
[realms]
    $REALM = {
        kdc = localhost:$kdc_port
    }
EOF
echo "   krb5.conf for every JVM: $work/krb5.conf (aes*-cts-hmac-sha1-96 only)"

step "2. configure: NVM mode (region $shm/namespace.region), Kerberos, SASL data transfer, HTTPS only"
write_conf "$conf" "$work/name" "$work/data" true "$shm/namespace.region"
pw=nvm-demo-$$
keytool -genkeypair -alias localhost -keyalg RSA -keysize 2048 -dname "CN=localhost" \
  -ext "SAN=dns:localhost,ip:127.0.0.1" -validity 30 -storetype JKS \
  -keystore "$conf/keystore.jks" -storepass "$pw" -keypass "$pw" 2>/dev/null
keytool -exportcert -alias localhost -keystore "$conf/keystore.jks" -storepass "$pw" -rfc -file "$conf/localhost.pem" 2>/dev/null
keytool -importcert -noprompt -alias localhost -file "$conf/localhost.pem" -storetype JKS \
  -keystore "$conf/truststore.jks" -storepass "$pw" 2>/dev/null
ssl_conf() {
  local file=$1; shift
  { echo '<?xml version="1.0"?>'; echo '<configuration>'
    while [ $# -gt 0 ]; do echo "  <property><name>$1</name><value>$2</value></property>"; shift 2; done
    echo '</configuration>'; } > "$file"
}
ssl_conf "$conf/ssl-server.xml" ssl.server.keystore.location "$conf/keystore.jks" ssl.server.keystore.type jks \
  ssl.server.keystore.password "$pw" ssl.server.keystore.keypassword "$pw" \
  ssl.server.truststore.location "$conf/truststore.jks" ssl.server.truststore.type jks ssl.server.truststore.password "$pw"
ssl_conf "$conf/ssl-client.xml" ssl.client.truststore.location "$conf/truststore.jks" \
  ssl.client.truststore.type jks ssl.client.truststore.password "$pw"
# The NameNode and the DataNode run as "hdfs", the HDFS superuser, as in a production cluster: the
# DataNode's calls (versionRequest first) need superuser privilege.
to_local='RULE:[2:$1/$2@$0](nn/.*@EXAMPLE\.COM)s/.*/hdfs/ RULE:[2:$1/$2@$0](dn/.*@EXAMPLE\.COM)s/.*/hdfs/ DEFAULT'
conf_put "$conf/core-site.xml" hadoop.security.auth_to_local "$to_local"
printf '   %-13s %-42s %s\n' core-site.xml hadoop.security.auth_to_local "$to_local"
secure_conf=(
  "core-site.xml hadoop.security.authentication kerberos"
  "core-site.xml hadoop.ssl.enabled.protocols TLSv1.2"
  "hdfs-site.xml dfs.block.access.token.enable true"
  "hdfs-site.xml dfs.namenode.kerberos.principal $NN"
  "hdfs-site.xml dfs.namenode.keytab.file $keytab"
  "hdfs-site.xml dfs.datanode.kerberos.principal $DN"
  "hdfs-site.xml dfs.datanode.keytab.file $keytab"
  "hdfs-site.xml dfs.web.authentication.kerberos.principal $HTTP"
  "hdfs-site.xml dfs.web.authentication.kerberos.keytab $keytab"
  "hdfs-site.xml dfs.data.transfer.protection authentication"
  "hdfs-site.xml dfs.http.policy HTTPS_ONLY"
  "hdfs-site.xml dfs.namenode.https-address localhost:$nn_https"
  "hdfs-site.xml dfs.datanode.https.address 127.0.0.1:$dn_https"
  "hdfs-site.xml dfs.namenode.safemode.extension 0"
)
for s in "${secure_conf[@]}"; do
  read -r f k v <<< "$s"
  conf_put "$conf/$f" "$k" "$v"
  printf '   %-13s %-42s %s\n' "$f" "$k" "$v"
done
echo "   ssl-server.xml, ssl-client.xml: a keytool-made key pair for CN=localhost and its trust store"

step "3. format; start the NameNode (as $NN) and the DataNode (as $DN)"
nn_format "$conf" || { tail -20 "$conf/format.log" >&2; fail "format"; }
launched=$(now); nn_start "$conf"; dn_start "$conf"
ready=$(await_nn "$launched")
echo "   NameNode pid $NN_PID, DataNode pid $DN_PID: $ready"
{ grep -h -E "Login successful for user|NVM region .*persistence mode" "$conf/logs/namenode.log" || true; } | sed -n 1,3p | logline
{ grep -h -E "Login successful for user" "$conf/logs/datanode.log" || true; } | sed -n 1,1p | logline
AS=$NN secure mkdir --path /user/client --owner client | indent

step "4. the client logs in from the keytab and writes a delegation token to $tokens"
secure fetch --renewer client --out "$tokens" | indent

step "5. a client with ONLY the token file (HADOOP_TOKEN_FILE_LOCATION; no keytab, no ticket cache)"
token_only --dir /user/client --write before-kill-1 | indent
token_only --dir /user/client --write before-kill-2 | indent
echo "   \$ HADOOP_TOKEN_FILE_LOCATION=$tokens hdfs dfs -ls /user/client"
HADOOP_TOKEN_FILE_LOCATION="$tokens" hdfs_dfs "$conf" -ls /user/client | indent
echo "   \$ hdfs dfs -ls /user/client   (neither a token nor a ticket)"
if hdfs_dfs "$conf" -ls /user/client >/dev/null 2>&1; then fail "a client without credentials was let in"; fi
echo "   refused: $(grep -o -E 'GSS initiate failed|Failed to find any Kerberos tgt|Client cannot authenticate via:\[[A-Z, ]*\]' "$conf/logs/client.log" | sort -u | paste -sd ' ')"

kill_restart() {
  local old=$NN_PID
  kill_hard "$NN_PID"
  echo "   NameNode $old killed (SIGKILL)"
  local logged; logged=$(wc -l < "$conf/logs/namenode.log")
  launched=$(now); nn_start "$conf"
  local ready; ready=$(await_nn "$launched")
  echo "   restarted NameNode (pid $NN_PID) on the same region: $ready"
  tail -n +$((logged + 1)) "$conf/logs/namenode.log" | { grep -h "NVM region recovered" || true; } | tail -1 \
    | sed 's/; RecoveryReport{.*//' | logline
  tail -n +$((logged + 1)) "$conf/logs/namenode.log" | grep "NVM region recovered" > /dev/null || fail "the NameNode did not recover from the region"
}

step "6. kill -9 the NameNode and restart it"
kill_restart

step "7. the token-only client again, same token file: reads every file, writes another"
token_only --dir /user/client --write after-restart --try-renew true | indent

step "8. the keytab client renews the token (2.7.3: only the renewer, authenticated by Kerberos)"
secure renew --tokens "$tokens" | indent
echo "   a second token now: its sequence number goes on from the region's counter"
out=$(secure fetch --renewer client --out "$work/second.token") || { echo "$out" | indent; fail "second token"; }
echo "$out" | grep '^got' | indent
grep -q '^got HDFS_DELEGATION_TOKEN #1 ' <<<"$out" && fail "the sequence number started again after the restart"

step "9. the keytab client cancels the token; kill -9 and restart; the token is refused"
secure cancel --tokens "$tokens" | indent
kill_restart
out=$(token_only --dir /user/client --expect-refused true) || { echo "$out" | indent; fail "the cancelled token"; }
echo "$out" | indent
grep -q "can't be found in cache" <<<"$out" || fail "refused, but not as an unknown token"
echo "   the second token, not cancelled, still reads and writes:"
TOKENS="$work/second.token" token_only --dir /user/client --write after-cancel | indent

echo
echo "RESULT: a token-only client wrote and read across kill -9 restarts of the NVM NameNode (token and master key from the region); the cancelled token stayed cancelled"
