package org.nvmnn.it.core;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.Options.Rename;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.server.namenode.INodeFile;
import org.apache.hadoop.io.EnumSetWritable;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TestName;
import org.nvmnn.it.NvmCluster;

/**
 * Every supported namespace operation survives a NameNode restart: perform it, snapshot the
 * namespace, restart the NameNode, snapshot again, compare. Run by {@link NvmNamespaceOpsTest} (NVM
 * mode: restart = region scan) and {@link StockNamespaceOpsTest} (stock: fsimage + edits). One
 * cluster per class, shared by its tests; each test works under its own directory.
 */
public abstract class NamespaceOpsTestBase {
  static final int BLOCK = 1024 * 1024;
  private static final Map<Class<?>, MiniDFSCluster> CLUSTERS = new HashMap<>();

  @Rule public TestName name = new TestName();

  protected MiniDFSCluster cluster;
  protected DistributedFileSystem fs;
  protected Path dir;

  protected abstract boolean nvm();

  static {
    // the recovery summary ("NVM region recovered N inodes in X ms ...") and the start-up line
    org.apache.log4j.Logger.getLogger("org.apache.hadoop.hdfs.server.namenode.NvmFSImage")
        .setLevel(org.apache.log4j.Level.INFO);
  }

  static Configuration conf(boolean nvm) {
    Configuration conf = new HdfsConfiguration();
    if (nvm) {
      NvmCluster.nvmConf(conf);
    }
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, BLOCK);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 0);
    conf.setInt(DFSConfigKeys.DFS_BYTES_PER_CHECKSUM_KEY, 512);
    conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, 2);
    conf.setInt(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY, 1);
    conf.setBoolean(DFSConfigKeys.DFS_PERMISSIONS_ENABLED_KEY, true);
    conf.setBoolean(DFSConfigKeys.DFS_STORAGE_POLICY_ENABLED_KEY, true);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_SAFEMODE_EXTENSION_KEY, 0);
    return conf;
  }

  @Before
  public void setUp() throws IOException {
    synchronized (CLUSTERS) {
      cluster = CLUSTERS.get(getClass());
      if (cluster == null) {
        Configuration conf = conf(nvm());
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, baseDir(getClass()));
        cluster =
            NvmCluster.builder(conf, 2)
                .storageTypes(new StorageType[] {StorageType.DISK, StorageType.SSD})
                .build();
        cluster.waitActive();
        CLUSTERS.put(getClass(), cluster);
      }
    }
    fs = cluster.getFileSystem();
    dir = new Path("/t/" + name.getMethodName());
    fs.mkdirs(dir);
  }

  /** A directory of this JVM only: concurrent builds must not share name or data dirs. */
  static String baseDir(Class<?> c) {
    return new java.io.File(
            System.getProperty("test.build.data", "target/test-dir"),
            c.getSimpleName()
                + "-"
                + java.lang.management.ManagementFactory.getRuntimeMXBean()
                    .getName()
                    .replaceAll("[^0-9A-Za-z]", "_"))
        .getAbsolutePath();
  }

  static void shutdown(Class<?> c) {
    synchronized (CLUSTERS) {
      MiniDFSCluster m = CLUSTERS.remove(c);
      if (m != null) {
        m.shutdown();
      }
    }
  }

  /** Snapshot, restart the NameNode, snapshot, assert equal; returns the restart time in ms. */
  protected long restartAndCompare() throws IOException {
    NvmCluster.Snapshot before = NvmCluster.snapshot(fs);
    long t0 = System.nanoTime();
    cluster.restartNameNode(true);
    long ms = (System.nanoTime() - t0) / 1000000;
    fs = cluster.getFileSystem();
    NvmCluster.Snapshot after = NvmCluster.snapshot(fs);
    NvmCluster.assertSameNamespace(
        name.getMethodName() + " (" + (nvm() ? "NVM" : "stock") + ")", before, after);
    return ms;
  }

  static byte[] data(int len, long seed) {
    byte[] b = new byte[len];
    new Random(seed).nextBytes(b);
    return b;
  }

  protected void write(Path p, byte[] b) throws IOException {
    try (FSDataOutputStream out = fs.create(p, true)) {
      out.write(b);
    }
  }

  protected void assertContent(Path p, byte[] expected) throws IOException {
    assertArrayEquals("content of " + p, expected, DFSTestUtil.readFileBuffer(fs, p));
  }

  // ---------------------------------------------------------------- operations

  /**
   * Without security no delegation token is issued and nothing is written, in both modes (NVM mode
   * refuses tokens only when the secret manager runs and would log them).
   */
  @Test
  public void delegationTokenWithoutSecurityIsNullAsOnStock() throws IOException {
    NvmCluster.Snapshot before = NvmCluster.snapshot(fs);
    assertNull(fs.getDelegationToken("renewer"));
    NvmCluster.assertSameNamespace("getDelegationToken", before, NvmCluster.snapshot(fs));
  }

  @Test
  public void mkdirsWithParentsSurvivesRestart() throws IOException {
    assertTrue(fs.mkdirs(new Path(dir, "a/b/c/d")));
    assertTrue(fs.mkdirs(new Path(dir, "a/x"), new FsPermission((short) 0700)));
    restartAndCompare();
    assertTrue(fs.getFileStatus(new Path(dir, "a/b/c/d")).isDirectory());
    assertEquals((short) 0700, fs.getFileStatus(new Path(dir, "a/x")).getPermission().toShort());
  }

  @Test
  public void createWriteCloseMultiBlockSurvivesRestart() throws IOException {
    byte[] big = data(BLOCK * 5 + 12345, 1); // 6 blocks: 4 inline + a BLOCK_EXT page
    byte[] small = data(100, 2);
    byte[] many = data(BLOCK * 14 + 1, 3); // 15 blocks: two BLOCK_EXT pages
    write(new Path(dir, "big"), big);
    write(new Path(dir, "small"), small);
    write(new Path(dir, "many"), many);
    write(new Path(dir, "empty"), new byte[0]);
    restartAndCompare();
    assertContent(new Path(dir, "big"), big);
    assertContent(new Path(dir, "small"), small);
    assertContent(new Path(dir, "many"), many);
    assertEquals(0, fs.getFileStatus(new Path(dir, "empty")).getLen());
  }

  @Test
  public void createOverwriteSurvivesRestart() throws IOException {
    Path p = new Path(dir, "f");
    write(p, data(BLOCK * 2, 4));
    long oldId = fs.getClient().getFileInfo(p.toString()).getFileId();
    byte[] b = data(777, 5);
    write(p, b);
    assertTrue(oldId != fs.getClient().getFileInfo(p.toString()).getFileId());
    restartAndCompare();
    assertContent(p, b);
  }

  @Test
  public void appendSurvivesRestart() throws IOException {
    Path p = new Path(dir, "f");
    byte[] a = data(BLOCK + 10, 6);
    byte[] b = data(BLOCK / 2, 7);
    write(p, a);
    try (FSDataOutputStream out = fs.append(p)) {
      out.write(b);
    }
    restartAndCompare();
    byte[] all = new byte[a.length + b.length];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    assertContent(p, all);
  }

  @Test
  public void hflushHsyncThenCloseSurvivesRestart() throws IOException {
    Path p = new Path(dir, "f");
    byte[] a = data(BLOCK + 4000, 8);
    try (FSDataOutputStream out = fs.create(p)) {
      out.write(a, 0, 1000);
      out.hflush();
      out.write(a, 1000, BLOCK);
      ((HdfsDataOutputStream) out).hsync(EnumSet.of(HdfsDataOutputStream.SyncFlag.UPDATE_LENGTH));
      out.write(a, BLOCK + 1000, 3000);
    }
    restartAndCompare();
    assertContent(p, a);
  }

  @Test
  public void pipelineRecoveryAfterDataNodeRestartSurvivesRestart() throws Exception {
    Path p = new Path(dir, "f");
    byte[] b = data(BLOCK / 2 + 3000, 19);
    long gsBefore;
    try (FSDataOutputStream out = fs.create(p)) {
      out.write(b, 0, BLOCK / 4);
      out.hflush();
      gsBefore =
          fs.getClient()
              .getLocatedBlocks(p.toString(), 0)
              .getLastLocatedBlock()
              .getBlock()
              .getGenerationStamp();
      // a DataNode of the pipeline restarts: the client recovers the pipeline (updatePipeline)
      assertTrue(cluster.restartDataNode(0, true));
      out.write(b, BLOCK / 4, b.length - BLOCK / 4);
      out.hflush();
    }
    cluster.waitActive();
    long gsAfter =
        fs.getClient().getLocatedBlocks(p.toString(), 0).get(0).getBlock().getGenerationStamp();
    assertTrue("generation stamp " + gsAfter + " not bumped past " + gsBefore, gsAfter > gsBefore);
    restartAndCompare();
    assertContent(p, b);
  }

  @Test
  public void renamesSurviveRestart() throws IOException {
    fs.mkdirs(new Path(dir, "src/sub"));
    fs.mkdirs(new Path(dir, "dst"));
    byte[] b = data(3000, 9);
    write(new Path(dir, "src/f1"), b);
    write(new Path(dir, "src/sub/f2"), b);
    write(new Path(dir, "victim"), data(BLOCK + 1, 10));
    write(new Path(dir, "over"), b);
    // file within a directory, with a long name (NAME_EXT pages)
    String longName = "renamed-" + new String(new char[200]).replace('\0', 'n');
    assertTrue(fs.rename(new Path(dir, "src/f1"), new Path(dir, "src/" + longName)));
    // directory across directories
    assertTrue(fs.rename(new Path(dir, "src/sub"), new Path(dir, "dst/sub2")));
    // into an existing directory (old rename semantics)
    assertTrue(fs.rename(new Path(dir, "src/" + longName), new Path(dir, "dst")));
    // over an existing file
    FileContext.getFileContext(cluster.getURI(0), fs.getConf())
        .rename(new Path(dir, "over"), new Path(dir, "victim"), Rename.OVERWRITE);
    restartAndCompare();
    assertContent(new Path(dir, "dst/" + longName), b);
    assertContent(new Path(dir, "dst/sub2/f2"), b);
    assertContent(new Path(dir, "victim"), b);
    assertFalse(fs.exists(new Path(dir, "over")));
    assertFalse(fs.exists(new Path(dir, "src/sub")));
  }

  @Test
  public void deleteFileAndLargeTreeSurvivesRestart() throws IOException {
    write(new Path(dir, "f"), data(10, 11));
    write(new Path(dir, "keep"), data(10, 12));
    Path tree = new Path(dir, "tree");
    int n = 0;
    for (int i = 0; i < 20; i++) {
      Path d = new Path(tree, "d" + i);
      fs.mkdirs(d);
      n++;
      for (int j = 0; j < 49; j++) {
        DFSTestUtil.createFile(fs, new Path(d, "f" + j), j == 0 ? 100 : 0, (short) 1, j);
        n++;
      }
    }
    assertEquals(1000, n);
    long ms = restartAndCompare();
    System.out.println(
        (nvm() ? "NVM" : "stock") + " NameNode restart with the 1000-inode tree: " + ms + " ms");
    assertTrue(fs.delete(new Path(dir, "f"), false));
    assertTrue(fs.delete(tree, true));
    restartAndCompare();
    assertFalse(fs.exists(tree));
    assertTrue(fs.exists(new Path(dir, "keep")));
  }

  @Test
  public void attributeChangesSurviveRestart() throws IOException {
    Path f = new Path(dir, "f");
    Path d = new Path(dir, "d");
    write(f, data(BLOCK + 5, 13));
    fs.mkdirs(d);
    fs.setPermission(f, new FsPermission((short) 0640));
    fs.setPermission(d, new FsPermission((short) 0711));
    fs.setOwner(f, "alice", "staff");
    fs.setOwner(d, "bob", null);
    long atime = System.currentTimeMillis() / 1000 * 1000 - 60000; // recent: reads do not move it
    fs.setTimes(f, 1234567890000L, atime);
    fs.setTimes(d, 1111111111000L, -1);
    fs.setReplication(f, (short) 1);
    restartAndCompare();
    assertEquals("alice", fs.getFileStatus(f).getOwner());
    assertEquals("staff", fs.getFileStatus(f).getGroup());
    assertEquals(1234567890000L, fs.getFileStatus(f).getModificationTime());
    assertEquals(atime, fs.getFileStatus(f).getAccessTime());
    assertEquals(1, fs.getFileStatus(f).getReplication());
    assertEquals((short) 0711, fs.getFileStatus(d).getPermission().toShort());
  }

  @Test
  public void accessTimeUpdateOnReadSurvivesRestart() throws IOException {
    Path f = new Path(dir, "f");
    byte[] b = data(10, 18);
    write(f, b);
    long old = 1000000000000L;
    fs.setTimes(f, -1, old);
    assertContent(f, b); // getBlockLocations moves atime (precision 1 h)
    long atime = fs.getFileStatus(f).getAccessTime();
    assertTrue("atime " + atime + " not updated by the read", atime > old);
    restartAndCompare();
    assertEquals(atime, fs.getFileStatus(f).getAccessTime());
  }

  @Test
  public void fileStoragePolicySurvivesRestart() throws IOException {
    Path f = new Path(dir, "f");
    write(f, data(10, 14));
    fs.setStoragePolicy(f, "COLD");
    restartAndCompare();
    assertEquals("COLD", policyName(f));
  }

  @Test
  public void directoryStoragePolicySurvivesRestart() throws Exception {
    Path d = new Path(dir, "d");
    fs.mkdirs(d);
    write(new Path(d, "inherits"), data(10, 15));
    fs.setStoragePolicy(d, "ALL_SSD");
    restartAndCompare();
    assertEquals("ALL_SSD", policyName(d));
    assertEquals("ALL_SSD", policyName(new Path(d, "inherits")));
  }

  private String policyName(Path p) throws IOException {
    byte id = fs.getClient().getFileInfo(p.toString()).getStoragePolicy();
    for (org.apache.hadoop.hdfs.protocol.BlockStoragePolicy bsp : fs.getStoragePolicies()) {
      if (bsp.getId() == id) {
        return bsp.getName();
      }
    }
    return "unspecified(" + id + ")";
  }

  @Test
  public void quotasSurviveRestart() throws IOException {
    Path d = new Path(dir, "q");
    Path t = new Path(dir, "typeq");
    fs.mkdirs(d);
    fs.mkdirs(t);
    write(new Path(d, "f"), data(1000, 16));
    fs.setQuota(d, 100, 50L * BLOCK);
    fs.setQuotaByStorageType(t, StorageType.SSD, 7L * BLOCK);
    restartAndCompare();
    ContentSummary cs = fs.getContentSummary(d);
    assertEquals(100, cs.getQuota());
    assertEquals(50L * BLOCK, cs.getSpaceQuota());
    assertEquals(7L * BLOCK, fs.getContentSummary(t).getTypeQuota(StorageType.SSD));
    fs.setQuota(d, -1, -1);
    restartAndCompare();
    assertEquals(-1, fs.getContentSummary(d).getQuota());
  }

  @Test
  public void underConstructionFileSurvivesRestartAndCanBeRecovered() throws Exception {
    Path p = new Path(dir, "open");
    byte[] b = data(BLOCK + 2048, 17);
    FSDataOutputStream out = fs.create(p);
    out.write(b);
    out.hflush();
    restartAndCompare();
    assertTrue(fs.getClient().getLocatedBlocks(p.toString(), 0).isUnderConstruction());
    // a different client takes over
    DistributedFileSystem other =
        (DistributedFileSystem)
            org.apache.hadoop.fs.FileSystem.newInstance(
                cluster.getURI(0), cluster.getConfiguration(0));
    try {
      long deadline = System.currentTimeMillis() + 60000;
      while (!other.recoverLease(p)) {
        assertTrue("lease recovery timed out", System.currentTimeMillis() < deadline);
        Thread.sleep(500);
      }
      assertContent(p, b);
      assertFalse(fs.getClient().getLocatedBlocks(p.toString(), 0).isUnderConstruction());
    } finally {
      other.close();
      try {
        out.close();
      } catch (IOException expected) {
        // the lease was taken away
      }
    }
    restartAndCompare();
    assertContent(p, b);
  }

  @Test
  public void generationStampsAndBlockIdsKeepIncreasingAcrossRestarts() throws IOException {
    long lastId = 0;
    long lastGs = 0;
    for (int i = 0; i < 3; i++) {
      Path p = new Path(dir, "f" + i);
      write(p, data(100, 20 + i));
      LocatedBlocks lbs = fs.getClient().getLocatedBlocks(p.toString(), 0);
      LocatedBlock lb = lbs.get(0);
      assertTrue(
          "block id " + lb.getBlock().getBlockId() + " after " + lastId,
          lb.getBlock().getBlockId() > lastId);
      assertTrue(
          "genstamp " + lb.getBlock().getGenerationStamp() + " after " + lastGs,
          lb.getBlock().getGenerationStamp() > lastGs);
      lastId = lb.getBlock().getBlockId();
      lastGs = lb.getBlock().getGenerationStamp();
      restartAndCompare();
    }
  }

  /**
   * addBlock, abandonBlock and addBlock again through ClientProtocol, as a client does after a
   * failed pipeline.
   */
  @Test
  public void abandonBlockSurvivesRestart() throws IOException {
    String src = new Path(dir, "abandoned").toString();
    ClientProtocol nn = fs.getClient().getNamenode();
    String client = fs.getClient().getClientName();
    HdfsFileStatus st =
        nn.create(
            src,
            FsPermission.getFileDefault(),
            client,
            new EnumSetWritable<CreateFlag>(EnumSet.of(CreateFlag.CREATE)),
            true,
            (short) 1,
            BLOCK,
            CryptoProtocolVersion.supported());
    LocatedBlock first = nn.addBlock(src, client, null, null, st.getFileId(), null);
    nn.abandonBlock(first.getBlock(), st.getFileId(), src, client);
    LocatedBlock second = nn.addBlock(src, client, null, null, st.getFileId(), null);
    assertTrue(second.getBlock().getBlockId() != first.getBlock().getBlockId());
    restartAndCompare();
    INodeFile f = cluster.getNamesystem().getFSDirectory().getINode(src).asFile();
    assertTrue(f.isUnderConstruction());
    assertEquals(1, f.getBlocks().length);
    assertEquals(second.getBlock().getBlockId(), f.getBlocks()[0].getBlockId());
    assertEquals(second.getBlock().getGenerationStamp(), f.getBlocks()[0].getGenerationStamp());
  }
}
