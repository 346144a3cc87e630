package org.nvmnn.it.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.IOException;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.server.namenode.NvmTestAccess;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.RegionCheck;
import org.apache.hadoop.hdfs.web.WebHdfsFileSystem;
import org.apache.hadoop.hdfs.web.WebHdfsTestUtil;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.Test;
import org.nvmnn.it.NvmCluster;

/**
 * Client input the stock NameNode accepts is accepted, persisted and restarted from in NVM mode
 * (issue 23's findings, each once): names with a NUL byte (mkdirs, and create over raw
 * ClientProtocol), a 10,000-character owner and group set by the superuser, a 10,000-character
 * client name, paths with trailing slashes (a recursive delete of "/h/gone//" stopped the NVM
 * NameNode until the fuzzer found it); and through WebHDFS (which reaches the same RPC server
 * methods) a NUL-free long owner, a name of every printable byte and a mkdirs under it. The same
 * calls go to a stock and an NVM NameNode and the answers are compared; both are restarted and
 * their namespaces compared; the NVM NameNode's region, after a clean stop, is consistent with
 * nothing to recover ({@code check} exit 0). A preferred block size past 48 bits is refused by both
 * (the stock inode header has the same 48 bits as the region's).
 */
public class HostileInputTest {
  private static final String LONG = repeat('x', 10_000);

  private static String repeat(char c, int n) {
    StringBuilder b = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      b.append(c);
    }
    return b.toString();
  }

  private interface Call {
    void run(ClientProtocol nn) throws IOException;
  }

  private static String outcome(ClientProtocol nn, Call c) {
    try {
      c.run(nn);
      return "ok";
    } catch (RemoteException e) {
      return e.getClassName();
    } catch (IOException | RuntimeException e) {
      return e.getClass().getName();
    }
  }

  private static Map<String, Call> calls() {
    Map<String, Call> m = new LinkedHashMap<>();
    m.put("mkdirs with a NUL byte", nn -> nn.mkdirs("/h/nul\u0000dir", perm(), true));
    m.put(
        "create with a NUL byte",
        nn ->
            nn.create(
                "/h/nul\u0000file",
                perm(),
                "client-a",
                flags(),
                true,
                (short) 1,
                1 << 20,
                CryptoProtocolVersion.supported()));
    m.put("complete it", nn -> nn.complete("/h/nul\u0000file", "client-a", null, 0));
    m.put("mkdirs for the owner", nn -> nn.mkdirs("/h/owned", perm(), true));
    m.put("setOwner to 10,000 characters", nn -> nn.setOwner("/h/owned", LONG, LONG + "g"));
    m.put(
        "create by a client of 10,000 characters",
        nn ->
            nn.create(
                "/h/open",
                perm(),
                LONG,
                flags(),
                true,
                (short) 1,
                1 << 20,
                CryptoProtocolVersion.supported()));
    m.put("mkdirs for a delete", nn -> nn.mkdirs("/h/gone/sub", perm(), true));
    m.put("delete with trailing slashes", nn -> nn.delete("/h/gone//", true));
    m.put(
        "create with a trailing slash",
        nn ->
            nn.create(
                "/h/slashed/",
                perm(),
                "client-a",
                flags(),
                true,
                (short) 1,
                1 << 20,
                CryptoProtocolVersion.supported()));
    m.put(
        "create with a block size past 48 bits",
        nn ->
            nn.create(
                "/h/huge-blocks",
                perm(),
                "client-b",
                flags(),
                true,
                (short) 1,
                1L << 50,
                CryptoProtocolVersion.supported()));
    return m;
  }

  private interface WebCall {
    void run(FileSystem web) throws IOException;
  }

  private static final String WEB_LONG = repeat('w', 5_000);

  /** Through WebHDFS: the NameNode's HTTP server calls the same RPC server methods. */
  private static Map<String, WebCall> webCalls() {
    Map<String, WebCall> m = new LinkedHashMap<>();
    m.put("webhdfs mkdirs", web -> web.mkdirs(new Path("/h/web")));
    m.put(
        "webhdfs setOwner to 5,000 characters",
        web -> web.setOwner(new Path("/h/web"), WEB_LONG, WEB_LONG + "g"));
    StringBuilder odd = new StringBuilder();
    for (char c = 0x21; c < 0x7f; c++) {
      if (c != '/' && c != ':') {
        odd.append(c);
      }
    }
    m.put("webhdfs mkdirs of every printable byte", web -> web.mkdirs(new Path("/h/web/x" + odd)));
    return m;
  }

  private static String outcome(FileSystem web, WebCall c) {
    try {
      c.run(web);
      return "ok";
    } catch (RemoteException e) {
      return e.getClassName();
    } catch (IOException | RuntimeException e) {
      return e.getClass().getName();
    }
  }

  private static FsPermission perm() {
    return FsPermission.getDefault();
  }

  private static EnumSetWritable<CreateFlag> flags() {
    return new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE));
  }

  private static Map<String, String> run(boolean nvm, Map<String, NvmCluster.Snapshot> after)
      throws Exception {
    Configuration conf = NamespaceOpsTestBase.conf(nvm);
    conf.set(
        MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
        NamespaceOpsTestBase.baseDir(HostileInputTest.class) + "-" + nvm);
    MiniDFSCluster cluster = NvmCluster.builder(conf, 1).build();
    File region = null;
    Map<String, String> out = new LinkedHashMap<>();
    try {
      cluster.waitActive();
      DistributedFileSystem fs = cluster.getFileSystem();
      for (Map.Entry<String, Call> e : calls().entrySet()) {
        out.put(e.getKey(), outcome(fs.getClient().getNamenode(), e.getValue()));
      }
      FileSystem web = WebHdfsTestUtil.getWebHdfsFileSystem(conf, WebHdfsFileSystem.SCHEME);
      for (Map.Entry<String, WebCall> e : webCalls().entrySet()) {
        out.put(e.getKey(), outcome(web, e.getValue()));
      }
      NvmCluster.Snapshot before = NvmCluster.snapshot(fs, "/h");
      cluster.restartNameNode(true);
      fs = cluster.getFileSystem();
      NvmCluster.Snapshot restarted = NvmCluster.snapshot(fs, "/h");
      NvmCluster.assertSameNamespace("/h after a restart", before, restarted);
      after.put(nvm ? "nvm" : "stock", restarted);
      if (nvm) {
        region = NvmTestAccess.region(cluster.getNameNode()).file();
      }
    } finally {
      cluster.shutdown();
    }
    if (region != null) {
      // a clean stop leaves a clean region: nothing for recovery to do
      assertEquals(RegionCheck.run(region).format(), 0, RegionCheck.run(region).exitCode());
    }
    return out;
  }

  @Test(timeout = 600_000)
  public void whatStockAcceptsNvmAcceptsPersistsAndRestartsFrom() throws Exception {
    Map<String, NvmCluster.Snapshot> after = new LinkedHashMap<>();
    Map<String, String> stock = run(false, after);
    Map<String, String> nvm = run(true, after);
    StringBuilder table = new StringBuilder();
    for (String k : stock.keySet()) {
      table.append(String.format("%-42s stock: %-40s nvm: %s%n", k, stock.get(k), nvm.get(k)));
    }
    System.out.print(table);
    String huge = "create with a block size past 48 bits";
    assertTrue(table.toString(), stock.get(huge).endsWith("IllegalArgumentException"));
    for (String k : stock.keySet()) {
      if (!k.equals(huge)) {
        assertEquals(k + "\n" + table, "ok", stock.get(k));
      }
    }
    assertEquals("outcomes differ:\n" + table, stock, nvm);
    // after the restarts the namespaces are the same (times come from each NameNode's clock)
    NvmCluster.Snapshot s = after.get("stock").ignoring("mtime", "atime");
    NvmCluster.Snapshot n = after.get("nvm").ignoring("mtime", "atime");
    NvmCluster.assertSameNamespace("stock vs NVM after the restarts", s, n);
    assertEquals(LONG, n.get("/h/owned").get("owner"));
    assertEquals(WEB_LONG, n.get("/h/web").get("owner"));
    assertEquals("true", n.get("/h/open").get("uc"));
  }
}
