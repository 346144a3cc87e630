package org.nvmnn.it.core;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.nvmnn.it.core.SecureClientIo.as;
import static org.nvmnn.it.core.SecureClientIo.bytes;
import static org.nvmnn.it.core.SecureClientIo.fs;
import static org.nvmnn.it.core.SecureClientIo.identifier;
import static org.nvmnn.it.core.SecureClientIo.read;
import static org.nvmnn.it.core.SecureClientIo.write;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.hdfs.server.namenode.NvmTestAccess;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.nvmnn.it.NvmCluster;
import org.nvmnn.it.SecureCluster;

/**
 * A Kerberos cluster in NVM mode (a real KDC, SASL data transfer, block access tokens, HTTPS only):
 * a client logged in from its keytab gets a delegation token, and a second identity that holds only
 * that token — no Kerberos credentials — writes and reads files through the NameNode and the
 * DataNode before and after NameNode restarts: the token and the master key that signed it come
 * back from the region. The keytab identity renews and cancels it; after the next restart the
 * cancelled token is refused. An identity with neither a token nor a ticket is refused throughout,
 * so the token is what lets the second identity in.
 */
public class SecureTokenRestartTest {
  private static SecureCluster realm;

  @BeforeClass
  public static void startKdc() throws Exception {
    realm = SecureCluster.start(SecureTokenRestartTest.class);
  }

  @AfterClass
  public static void stopKdc() {
    if (realm != null) {
      realm.stop();
    }
  }

  /** Reads and writes as the token-only identity, with a new FileSystem (new connections). */
  private static void readAndWrite(
      UserGroupInformation tokenOnly, URI uri, Configuration conf, String check, String fresh)
      throws Exception {
    try (FileSystem fs = fs(tokenOnly, uri, conf)) {
      as(
          tokenOnly,
          () -> {
            assertArrayEquals("read back " + check, bytes(check), read(fs, check, check.length()));
            write(fs, fresh, bytes(fresh));
            assertArrayEquals("read back " + fresh, bytes(fresh), read(fs, fresh, fresh.length()));
            assertEquals(
                "files are owned by the token's owner",
                SecureCluster.CLIENT,
                fs.getFileStatus(new Path(fresh)).getOwner());
            return null;
          });
    }
  }

  /** An identity with no token and no ticket: refused, so the token is what the other uses. */
  private static void assertNoCredentialsRefused(URI uri, Configuration conf) throws Exception {
    UserGroupInformation none = UserGroupInformation.createRemoteUser(SecureCluster.CLIENT);
    try (FileSystem fs = fs(none, uri, conf)) {
      as(none, () -> fs.getFileStatus(new Path("/")));
      fail("a client without a token or a Kerberos ticket was let in");
    } catch (IOException expected) {
      assertTrue(
          "refused for want of credentials: " + NvmCluster.messages(expected),
          NvmCluster.messages(expected)
              .contains("Client cannot authenticate via:[TOKEN, KERBEROS]"));
    }
  }

  @Test(timeout = 600_000)
  public void tokenOnlyClientAcrossRestarts() throws Exception {
    Configuration clusterConf = realm.conf(getClass());
    MiniDFSCluster cluster =
        NvmCluster.buildOrSkipIfPlaceholder(NvmCluster.builder(clusterConf, 1));
    Configuration conf = SecureCluster.clientConf(clusterConf);
    try {
      assertTrue("NVM mode", NvmTestAccess.isNvm(cluster.getNameNode()));
      assertTrue("Kerberos is on", UserGroupInformation.isSecurityEnabled());
      URI uri = cluster.getURI();
      String home = "/user/" + SecureCluster.CLIENT;
      DistributedFileSystem admin = cluster.getFileSystem(); // the hdfs/localhost login: superuser
      admin.mkdirs(new Path(home));
      admin.setOwner(new Path(home), SecureCluster.CLIENT, null);

      UserGroupInformation kerberos =
          UserGroupInformation.loginUserFromKeytabAndReturnUGI(
              realm.clientPrincipal, realm.clientKeytab.getAbsolutePath());
      Token<?> token;
      try (FileSystem fs = fs(kerberos, uri, conf)) {
        token = as(kerberos, () -> fs.getDelegationToken(SecureCluster.CLIENT));
      }
      DelegationTokenIdentifier id = identifier(token);
      assertEquals(DelegationTokenIdentifier.HDFS_DELEGATION_KIND, token.getKind());
      assertEquals("owner", realm.clientPrincipal, id.getOwner().toString());
      assertEquals("renewer", SecureCluster.CLIENT, id.getRenewer().toString());
      assertTrue(
          "the region's token sequence number counts this token",
          NvmTestAccess.region(cluster.getNameNode()).counter(RegionLayout.SB_TOKEN_SEQUENCE)
              >= id.getSequenceNumber());

      UserGroupInformation tokenOnly = UserGroupInformation.createRemoteUser(SecureCluster.CLIENT);
      tokenOnly.addToken(token);
      assertFalse("no Kerberos credentials", tokenOnly.hasKerberosCredentials());
      assertNoCredentialsRefused(uri, conf);
      String first = home + "/before-restart", second = home + "/after-restart";
      try (FileSystem fs = fs(tokenOnly, uri, conf)) {
        as(
            tokenOnly,
            () -> {
              write(fs, first, bytes(first));
              return null;
            });
      }
      readAndWrite(tokenOnly, uri, conf, first, home + "/before-restart-2");

      cluster.restartNameNode(true);
      assertTrue("NVM mode after the restart", NvmTestAccess.isNvm(cluster.getNameNode()));
      readAndWrite(tokenOnly, uri, conf, first, second);
      assertNoCredentialsRefused(uri, conf);

      try {
        as(tokenOnly, () -> token.renew(conf));
        fail("the token renewed itself without Kerberos");
      } catch (IOException expected) {
        assertTrue(
            "refused as 2.7.3 refuses a renewal without Kerberos: " + expected,
            NvmCluster.messages(expected).contains("can be renewed only with kerberos"));
      }
      long expiry = as(kerberos, () -> token.renew(conf));
      assertTrue("renewed after the restart", expiry > System.currentTimeMillis());
      as(
          kerberos,
          () -> {
            token.cancel(conf);
            return null;
          });

      cluster.restartNameNode(true);
      try (FileSystem fs = fs(tokenOnly, uri, conf)) {
        as(tokenOnly, () -> fs.getFileStatus(new Path(second)));
        fail("a cancelled token was accepted after the restart");
      } catch (IOException expected) {
        assertTrue(
            "refused as an unknown token: " + NvmCluster.messages(expected),
            NvmCluster.messages(expected).contains("can't be found in cache"));
      }
      // the files the token-only identity wrote are there, read by the keytab identity
      try (FileSystem fs = fs(kerberos, uri, conf)) {
        assertArrayEquals(
            "read as the keytab identity",
            bytes(second),
            as(kerberos, () -> read(fs, second, second.length())));
      }
    } finally {
      cluster.shutdown();
    }
  }
}
