package org.nvmnn.it.core;

import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.nvmnn.it.core.MigrationTestSupport.cluster;

import java.io.IOException;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.junit.After;
import org.junit.Test;

/**
 * Delegation tokens cross a migration both ways: tokens a stock NameNode issued (one renewed, one
 * cancelled) are imported into a region (the import no longer refuses them), renew after the NVM
 * NameNode starts on it, and, exported back, renew on the stock NameNode again; the cancelled one
 * stays dead on every side.
 */
public class TokenMigrationTest {
  private MiniDFSCluster cluster;

  @After
  public void tearDown() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  @SuppressWarnings("unchecked")
  private static Token<DelegationTokenIdentifier> token(DistributedFileSystem fs)
      throws IOException {
    Token<?> t = fs.getDelegationToken(UserGroupInformation.getCurrentUser().getShortUserName());
    assertNotNull("a token is issued", t);
    return (Token<DelegationTokenIdentifier>) t;
  }

  private static void assertDead(DistributedFileSystem fs, Token<DelegationTokenIdentifier> t) {
    try {
      fs.getClient().renewDelegationToken(t);
      fail("a cancelled token renewed");
    } catch (IOException expected) {
      // unknown token
    }
  }

  @Test(timeout = 180_000)
  public void tokensSurviveImportAndExport() throws Exception {
    cluster =
        cluster(
            getClass(),
            "tokens",
            false,
            1,
            DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_ALWAYS_USE_KEY + "=true");
    DistributedFileSystem fs = cluster.getFileSystem();
    Token<DelegationTokenIdentifier> a = token(fs), b = token(fs), c = token(fs);
    long renewedOnStock = fs.getClient().renewDelegationToken(b);
    fs.getClient().cancelDelegationToken(c);
    fs = MigrationTestSupport.importAndStartNvm(cluster);
    assertTrue(fs.getClient().renewDelegationToken(a) > System.currentTimeMillis());
    assertTrue(fs.getClient().renewDelegationToken(b) >= renewedOnStock);
    assertDead(fs, c);
    Token<DelegationTokenIdentifier> d = token(fs); // issued by the NVM NameNode
    fs.getClient().cancelDelegationToken(a);

    fs = MigrationTestSupport.exportAndStartStock(cluster);
    fs.getClient().renewDelegationToken(b);
    fs.getClient().renewDelegationToken(d);
    assertDead(fs, a);
    assertDead(fs, c);
  }
}
