package org.nvmnn.it.core;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.nvmnn.it.core.SecureClientIo.as;
import static org.nvmnn.it.core.SecureClientIo.bytes;
import static org.nvmnn.it.core.SecureClientIo.fs;
import static org.nvmnn.it.core.SecureClientIo.identifier;
import static org.nvmnn.it.core.SecureClientIo.read;
import static org.nvmnn.it.core.SecureClientIo.write;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URL;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.hdfs.server.namenode.NvmTestAccess;
import org.apache.hadoop.hdfs.web.SWebHdfsFileSystem;
import org.apache.hadoop.hdfs.web.URLConnectionFactory;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.nvmnn.it.NvmCluster;
import org.nvmnn.it.SecureCluster;

/**
 * Secure WebHDFS (HTTPS only) on an NVM NameNode across restarts. The keytab user's {@code OPEN},
 * authenticated by SPNEGO, is answered with a redirect to the DataNode that carries a delegation
 * token the NameNode issued for it (through its RPC server's {@code getDelegationToken}, as 2.7.3's
 * {@code NamenodeWebHdfsMethods} does); following it with that token alone, no Kerberos, reads the
 * file. A redirect issued before a restart still reads after it (the DataNode checks its token with
 * the restarted NameNode), one whose token was cancelled does not, and a {@code swebhdfs://}
 * FileSystem reads the file before and after with the token it fetched before.
 */
public class SecureWebHdfsRestartTest {
  private static SecureCluster realm;

  @BeforeClass
  public static void startKdc() throws Exception {
    realm = SecureCluster.start(SecureWebHdfsRestartTest.class);
  }

  @AfterClass
  public static void stopKdc() {
    if (realm != null) {
      realm.stop();
    }
  }

  /** The NameNode's answer to a SPNEGO-authenticated OPEN: a 307 whose Location is returned. */
  private static String openRedirect(URLConnectionFactory http, URL open) throws Exception {
    HttpURLConnection c = (HttpURLConnection) http.openConnection(open, true);
    try {
      c.setInstanceFollowRedirects(false);
      c.setRequestMethod("GET");
      assertEquals("OPEN answered with a redirect", 307, c.getResponseCode());
      String location = c.getHeaderField("Location");
      assertNotNull("a Location", location);
      return location;
    } finally {
      c.disconnect();
    }
  }

  /** The delegation token in a redirect's {@code delegation} parameter. */
  private static Token<DelegationTokenIdentifier> tokenIn(String location) throws Exception {
    for (String p : new URI(location).getRawQuery().split("&")) {
      if (p.startsWith("delegation=")) {
        Token<DelegationTokenIdentifier> t = new Token<>();
        t.decodeFromUrlString(p.substring("delegation=".length()));
        return t;
      }
    }
    throw new AssertionError("no delegation token in the redirect " + location);
  }

  /** GETs {@code location} over HTTPS without Kerberos: the status, and the body or error body. */
  private static Response get(URLConnectionFactory http, String location) throws Exception {
    HttpURLConnection c = (HttpURLConnection) http.openConnection(new URL(location), false);
    try {
      int status = c.getResponseCode();
      InputStream in = status == 200 ? c.getInputStream() : c.getErrorStream();
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      if (in != null) {
        try (InputStream i = in) {
          byte[] buf = new byte[8192];
          for (int n; (n = i.read(buf)) > 0; ) {
            b.write(buf, 0, n);
          }
        }
      }
      return new Response(status, b.toByteArray());
    } finally {
      c.disconnect();
    }
  }

  private static final class Response {
    final int status;
    final byte[] body;

    Response(int status, byte[] body) {
      this.status = status;
      this.body = body;
    }

    String text() {
      return new String(body, java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  private static void assertReads(URLConnectionFactory http, String location, byte[] expected)
      throws Exception {
    Response r = get(http, location);
    assertEquals("DataNode status for " + location + ": " + r.text(), 200, r.status);
    assertArrayEquals("bytes through the redirect", expected, r.body);
  }

  @Test(timeout = 600_000)
  public void openRedirectTokensSurviveRestarts() throws Exception {
    Configuration clusterConf = realm.conf(getClass());
    MiniDFSCluster cluster =
        NvmCluster.buildOrSkipIfPlaceholder(NvmCluster.builder(clusterConf, 1));
    try {
      assertTrue("NVM mode", NvmTestAccess.isNvm(cluster.getNameNode()));
      Configuration conf = SecureCluster.clientConf(clusterConf);
      String home = "/user/" + SecureCluster.CLIENT, file = home + "/web.txt";
      byte[] data = bytes("read through a token-bearing WebHDFS redirect\n");
      DistributedFileSystem admin = cluster.getFileSystem();
      admin.mkdirs(new Path(home));
      admin.setOwner(new Path(home), SecureCluster.CLIENT, null);
      UserGroupInformation kerberos =
          UserGroupInformation.loginUserFromKeytabAndReturnUGI(
              realm.clientPrincipal, realm.clientKeytab.getAbsolutePath());
      try (FileSystem fs = fs(kerberos, cluster.getURI(), conf)) {
        as(
            kerberos,
            () -> {
              write(fs, file, data);
              return null;
            });
      }

      // "localhost": the SPNEGO principal is HTTP/<the host in the URL>
      String nnHttps = "localhost:" + cluster.getNameNode().getHttpsAddress().getPort();
      URL open = new URL("https://" + nnHttps + "/webhdfs/v1" + file + "?op=OPEN");
      URLConnectionFactory http = URLConnectionFactory.newDefaultURLConnectionFactory(conf);
      String kept = as(kerberos, () -> openRedirect(http, open));
      String cancelled = as(kerberos, () -> openRedirect(http, open));
      Token<DelegationTokenIdentifier> keptToken = tokenIn(kept);
      Token<DelegationTokenIdentifier> cancelledToken = tokenIn(cancelled);
      assertEquals(SWebHdfsFileSystem.TOKEN_KIND, keptToken.getKind());
      // the web server authenticates the short name, and the redirect's token is issued to it
      assertEquals("owner", SecureCluster.CLIENT, identifier(keptToken).getOwner().toString());
      assertEquals("renewer", SecureCluster.CLIENT, identifier(keptToken).getRenewer().toString());
      assertNotEquals(
          "a token per redirect",
          identifier(keptToken).getSequenceNumber(),
          identifier(cancelledToken).getSequenceNumber());
      assertReads(http, kept, data);

      FileSystem web = fs(kerberos, URI.create("swebhdfs://" + nnHttps), conf);
      assertArrayEquals("swebhdfs read", data, as(kerberos, () -> read(web, file, data.length)));

      // cancel the second redirect's token, as its owner, over RPC
      Token<DelegationTokenIdentifier> rpc = new Token<>(cancelledToken);
      rpc.setKind(DelegationTokenIdentifier.HDFS_DELEGATION_KIND);
      SecurityUtil.setTokenService(rpc, cluster.getNameNode().getNameNodeAddress());
      as(
          kerberos,
          () -> {
            rpc.cancel(conf);
            return null;
          });

      cluster.restartNameNode(true);
      assertTrue("NVM mode after the restart", NvmTestAccess.isNvm(cluster.getNameNode()));
      assertReads(http, kept, data);
      Response refused = get(http, cancelled);
      assertNotEquals("a cancelled token's redirect read the file", 200, refused.status);
      assertTrue(
          "refused as an unknown token: " + refused.status + " " + refused.text(),
          refused.text().contains("can't be found in cache"));
      String after = as(kerberos, () -> openRedirect(http, open));
      assertTrue(
          "the sequence number goes on after the restart",
          identifier(tokenIn(after)).getSequenceNumber()
              > identifier(cancelledToken).getSequenceNumber());
      assertReads(http, after, data);
      assertArrayEquals(
          "swebhdfs read after the restart, with its token from before",
          data,
          as(kerberos, () -> read(web, file, data.length)));
      web.close();
    } finally {
      cluster.shutdown();
    }
  }
}
