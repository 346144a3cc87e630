package org.nvmnn.it.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.namenode.NvmMigrationTool;
import org.apache.hadoop.hdfs.server.namenode.NvmTestAccess;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.tools.DFSAdmin;
import org.apache.hadoop.util.StringUtils;
import org.nvmnn.it.NvmCluster;

/** Clusters, tool runs and mode switches shared by the import and export tests. */
final class MigrationTestSupport {
  private MigrationTestSupport() {}

  /** The output of one tool run. */
  static final class Run {
    final int exit;
    final String out;
    final String err;

    Run(int exit, String out, String err) {
      this.exit = exit;
      this.out = out;
      this.err = err;
    }

    @Override
    public String toString() {
      return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  /**
   * A cluster of {@code dataNodes} DataNodes (DISK + SSD each), NVM or stock, under its own base
   * directory, ACLs on, plus {@code settings} ("key=value").
   */
  static MiniDFSCluster cluster(
      Class<?> test, String name, boolean nvm, int dataNodes, String... settings)
      throws IOException {
    Configuration conf = NamespaceOpsTestBase.conf(nvm);
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_ACLS_ENABLED_KEY, true);
    for (String kv : settings) {
      conf.set(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
    }
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, NamespaceOpsTestBase.baseDir(test) + "/" + name);
    MiniDFSCluster c =
        new MiniDFSCluster.Builder(conf)
            .numDataNodes(dataNodes)
            .storageTypes(new StorageType[] {StorageType.DISK, StorageType.SSD})
            .build();
    c.waitActive();
    return c;
  }

  /**
   * With NameNode 0 running stock: stops it, imports its name directory into a region, starts it in
   * NVM mode and returns its file system (the import must succeed).
   */
  static DistributedFileSystem importAndStartNvm(MiniDFSCluster c) throws IOException {
    return migrateAndStart(c, "import", true);
  }

  /** The way back: stops the NVM NameNode, exports its region, starts it stock. */
  static DistributedFileSystem exportAndStartStock(MiniDFSCluster c) throws IOException {
    return migrateAndStart(c, "export", false);
  }

  private static DistributedFileSystem migrateAndStart(
      MiniDFSCluster c, String command, boolean nvm) throws IOException {
    c.shutdownNameNode(0);
    Run run = tool(c, command);
    assertEquals(run.toString(), 0, run.exit);
    setMode(c, nvm);
    c.restartNameNode(0, true);
    assertEquals(nvm, NvmTestAccess.isNvm(c.getNameNode(0)));
    return c.getFileSystem();
  }

  /**
   * NameNode 0's configuration, switched to NVM mode (emulated persistence, 64 MiB region) or
   * stock.
   */
  static Configuration setMode(MiniDFSCluster c, boolean nvm) {
    Configuration conf = c.getConfiguration(0);
    if (nvm) {
      NvmCluster.nvmConf(conf);
    } else {
      conf.setBoolean(NvmConfigKeys.NVM_ENABLED_KEY, false);
    }
    return conf;
  }

  /**
   * Runs NvmMigrationTool in this JVM with NameNode 0's configuration (NVM settings added) and
   * {@code args}.
   */
  static Run tool(MiniDFSCluster c, String... args) {
    Configuration conf = NvmCluster.nvmConf(new HdfsConfiguration(c.getConfiguration(0)));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit;
    try (PrintStream o = new PrintStream(out, true, "UTF-8");
        PrintStream e = new PrintStream(err, true, "UTF-8")) {
      exit = NvmMigrationTool.run(conf, args, o, e);
    } catch (java.io.UnsupportedEncodingException x) {
      throw new AssertionError(x);
    }
    Run run =
        new Run(
            exit,
            new String(out.toByteArray(), StandardCharsets.UTF_8),
            new String(err.toByteArray(), StandardCharsets.UTF_8));
    System.out.println("NvmMigrationTool " + String.join(" ", args) + ": " + run);
    return run;
  }

  /** Runs {@code hdfs dfsadmin args} against NameNode 0 and asserts exit code 0. */
  static void dfsadmin(MiniDFSCluster c, String... args) throws Exception {
    Configuration conf = new HdfsConfiguration(c.getConfiguration(0));
    FileSystem.setDefaultUri(conf, c.getURI(0));
    assertEquals("dfsadmin " + String.join(" ", args), 0, new DFSAdmin(conf).run(args));
  }

  /** NameNode 0's first name directory's current/. */
  static File current(MiniDFSCluster c) {
    return new File(c.getNameDirs(0).iterator().next().getPath(), "current");
  }

  static File region(MiniDFSCluster c) {
    return new File(current(c), NvmConfigKeys.REGION_DEFAULT_FILE_NAME);
  }

  /** The file names in NameNode 0's first current/ directory, sorted. */
  static TreeSet<String> names(MiniDFSCluster c) {
    String[] n = current(c).list();
    return new TreeSet<>(Arrays.asList(n == null ? new String[0] : n));
  }

  /**
   * Restarts NameNode 0 and expects it to fail with every one of {@code expected} in the failure.
   */
  static void expectStartFailure(MiniDFSCluster c, String... expected) {
    try {
      c.restartNameNode(0, true);
      fail("the NameNode started");
    } catch (Throwable t) {
      String all = StringUtils.stringifyException(t);
      for (String e : expected) {
        assertTrue("expected '" + e + "' in:\n" + all, all.contains(e));
      }
    }
  }
}
