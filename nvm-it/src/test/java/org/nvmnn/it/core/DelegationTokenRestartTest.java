package org.nvmnn.it.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.hdfs.server.namenode.NameNodeAdapter;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.SecretManager.InvalidToken;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.delegation.DelegationKey;
import org.junit.Test;
import org.nvmnn.it.NvmCluster;

/**
 * Delegation tokens and master keys in the region (region-format.md §5.5): what the token secret
 * manager holds before a NameNode restart it holds after it — a token issued before renews after,
 * with its password checked against the restored master key; a cancelled token stays dead; the
 * sequence number and the key id go on from where they were; the set of master keys, with their
 * expiry dates and key bytes, comes back exactly, after keys were rolled and expired ones removed.
 * The secret manager runs without Kerberos through {@code
 * dfs.namenode.delegation.token.always-use}, as upstream tests run it.
 */
public class DelegationTokenRestartTest {
  private static Configuration conf(long keyUpdateMs, long maxLifetimeMs) {
    Configuration conf = NvmCluster.nvmConf();
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_ALWAYS_USE_KEY, true);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_DELEGATION_KEY_UPDATE_INTERVAL_KEY, keyUpdateMs);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_MAX_LIFETIME_KEY, maxLifetimeMs);
    return conf;
  }

  private static String me() throws IOException {
    return UserGroupInformation.getCurrentUser().getShortUserName();
  }

  private static int sequenceNumber(Token<DelegationTokenIdentifier> t) throws IOException {
    DelegationTokenIdentifier id = new DelegationTokenIdentifier();
    id.readFields(new DataInputStream(new ByteArrayInputStream(t.getIdentifier())));
    return id.getSequenceNumber();
  }

  @SuppressWarnings("unchecked")
  private static Token<DelegationTokenIdentifier> token(DistributedFileSystem fs, String renewer)
      throws IOException {
    Token<?> t = fs.getDelegationToken(renewer);
    assertNotNull("the secret manager runs: a token is issued", t);
    return (Token<DelegationTokenIdentifier>) t;
  }

  private static void assertDead(DistributedFileSystem fs, Token<DelegationTokenIdentifier> t) {
    try {
      fs.getClient().renewDelegationToken(t);
      fail("a cancelled token renewed");
    } catch (IOException e) {
      assertTrue(
          "refused as an unknown token: " + e,
          e instanceof InvalidToken || String.valueOf(e.getMessage()).contains("token"));
    }
  }

  @Test(timeout = 120_000)
  public void tokensRenewAndStayCancelledAcrossRestarts() throws Exception {
    MiniDFSCluster cluster =
        NvmCluster.buildOrSkipIfPlaceholder(NvmCluster.builder(conf(86_400_000L, 604_800_000L), 1));
    try {
      DistributedFileSystem fs = cluster.getFileSystem();
      Token<DelegationTokenIdentifier> kept = token(fs, me());
      Token<DelegationTokenIdentifier> cancelled = token(fs, me());
      Token<DelegationTokenIdentifier> renewedBefore = token(fs, me());
      long expiryBefore = fs.getClient().renewDelegationToken(renewedBefore);
      fs.getClient().cancelDelegationToken(cancelled);
      int lastSeq = sequenceNumber(renewedBefore);

      cluster.restartNameNode(true);
      fs = cluster.getFileSystem();
      long renewed = fs.getClient().renewDelegationToken(kept);
      assertTrue("renewed after the restart", renewed > System.currentTimeMillis());
      assertTrue(
          "renewed again after the restart",
          fs.getClient().renewDelegationToken(renewedBefore) >= expiryBefore);
      assertDead(fs, cancelled);
      Token<DelegationTokenIdentifier> after = token(fs, me());
      assertTrue(
          "the sequence number goes on (" + sequenceNumber(after) + " after " + lastSeq + ")",
          sequenceNumber(after) > lastSeq);

      fs.getClient().cancelDelegationToken(kept);
      cluster.restartNameNode(true);
      fs = cluster.getFileSystem();
      assertDead(fs, kept);
      assertDead(fs, cancelled);
      fs.getClient().renewDelegationToken(after);
      fs.getClient().renewDelegationToken(renewedBefore);
    } finally {
      cluster.shutdown();
    }
  }

  /** id &rarr; "expiry/key bytes" of the secret manager's master keys. */
  private static Map<Integer, String> keys(MiniDFSCluster cluster) {
    Map<Integer, String> m = new TreeMap<>();
    for (DelegationKey k :
        NameNodeAdapter.getDtSecretManager(cluster.getNamesystem()).getAllKeys()) {
      m.put(k.getKeyId(), k.getExpiryDate() + "/" + java.util.Arrays.toString(k.getEncodedKey()));
    }
    return m;
  }

  @Test(timeout = 120_000)
  public void masterKeysRolledAndExpiredComeBackAsTheyWere() throws Exception {
    // a key every second; a key expires 1 s + 2 s after it was made and is then dropped
    MiniDFSCluster cluster =
        NvmCluster.buildOrSkipIfPlaceholder(NvmCluster.builder(conf(1_000L, 2_000L), 1));
    try {
      DistributedFileSystem fs = cluster.getFileSystem();
      Token<DelegationTokenIdentifier> t = token(fs, me());
      long deadline = System.currentTimeMillis() + 60_000;
      Map<Integer, String> before = keys(cluster);
      while (before.keySet().iterator().next() < 6 && System.currentTimeMillis() < deadline) {
        Thread.sleep(500); // until the first keys expired and were removed
        before = keys(cluster);
      }
      assertTrue(
          "keys were rolled and the oldest removed: " + before.keySet(),
          before.keySet().iterator().next() >= 6);
      cluster.getNameNode().stop(); // stops the secret manager: no roll in between
      cluster.getNameNode().join();
      Map<Integer, String> stopped = keys(cluster);
      // The restarted NameNode stays in safe mode, where the secret manager does not run: what it
      // holds is what was restored, before the start-up key and the remover thread's first roll.
      Configuration c = cluster.getConfiguration(0);
      c.setInt(DFSConfigKeys.DFS_NAMENODE_SAFEMODE_MIN_DATANODES_KEY, 2); // there is one
      cluster.restartNameNode(false);
      assertEquals("master keys after the restart", stopped, keys(cluster));
      int last = ((TreeMap<Integer, String>) stopped).lastKey();
      cluster.getNameNodeRpc().setSafeMode(SafeModeAction.SAFEMODE_LEAVE, false);
      int newest = ((TreeMap<Integer, String>) keys(cluster)).lastKey();
      assertTrue("the key id goes on (" + newest + " after " + last + ")", newest > last);
      try {
        cluster.getFileSystem().getClient().renewDelegationToken(t);
        fail("a token past its maximum lifetime renewed");
      } catch (IOException expected) {
        // expired: its maximum lifetime (2 s) passed long ago, before and after the restart
      }
    } finally {
      cluster.shutdown();
    }
  }
}
