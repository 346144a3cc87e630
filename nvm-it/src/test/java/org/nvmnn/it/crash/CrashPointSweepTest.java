package org.nvmnn.it.crash;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.NSQuotaExceededException;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguousUnderConstruction;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataNodeTestUtils;
import org.apache.hadoop.hdfs.server.namenode.INodeFile;
import org.apache.hadoop.hdfs.server.namenode.NvmTestAccess;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.nvmnn.it.NvmCluster;

/**
 * make crash-test: every supported mutation of a real NameNode (in NVM mode, in this JVM) is run
 * once with the region in capture mode, which writes, at every persist barrier the operation
 * reaches, the images a crash there could leave: every store after the last completed barrier lost
 * ({@code .lost}), every store issued so far present ({@code .present}) and, when several cache
 * lines were flushed since the last barrier, each of them alone and all but each of them. Each
 * image must pass the offline checker (needing recovery at most), recover, check clean, and recover
 * to exactly one of the operation's consistent states: the state before it, or the state after one
 * of its batches (an RPC that logs several edits, like mkdirs of missing parents or addBlock with
 * its generation stamp, persists one batch per edit, in order). The state before contains every
 * operation acknowledged earlier. A crash point is a persist barrier; each gives two or more
 * images. Prints the crash points, images and violations per operation and in total to
 * target/crash-test-report.txt and fails on any violation.
 */
public class CrashPointSweepTest {
  static final String CLIENT = "crash-sweep-client";
  static final String OTHER = "crash-sweep-other";

  static MiniDFSCluster cluster;
  static DistributedFileSystem fs;
  static ClientProtocol nn;
  private static Region region;
  private static File scratch;
  private static CrashImageVerifier verifier;

  /** How failures are captured: crash points here, power-loss sync points in the subclass. */
  static CaptureModel model;

  private static final Map<String, int[]> ROWS =
      new LinkedHashMap<>(); // op -> batches, barriers, images, violations
  private static final List<String> VIOLATIONS = new ArrayList<>();

  interface Op {
    void run() throws Exception;
  }

  /**
   * The inode whose attributes an operation changes, by its path before and after the operation
   * (null: it does not exist then). Its attributes as the NameNode serves them before and after
   * must be the ones the region holds in the state before and after the last batch, and every crash
   * image must recover to one of the states of the operation ({@link AttributeView}).
   */
  static final class Watch {
    final String before;
    final String after;

    Watch(String before, String after) {
      this.before = before;
      this.after = after;
    }
  }

  @BeforeClass
  public static void start() throws Exception {
    start(NvmCluster.nvmConf(), CaptureModel.BARRIERS);
  }

  /** A NameNode in NVM mode with {@code conf}'s persistence, swept with {@code m}. */
  static void start(Configuration conf, CaptureModel m) throws Exception {
    model = m;
    conf.set(NvmConfigKeys.NVM_REGION_SIZE_KEY, "2m"); // every crash point writes two images
    conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, 1);
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, 1024 * 1024);
    // the token secret manager runs (as with Kerberos), so its edits are swept too
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_ALWAYS_USE_KEY, true);
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_ACLS_ENABLED_KEY, true);
    conf.setBoolean(NvmConfigKeys.NVM_SNAPSHOTS_PREVIEW_KEY, true);
    cluster = NvmCluster.buildOrSkipIfPlaceholder(NvmCluster.builder(conf, 1));
    fs = cluster.getFileSystem();
    nn = fs.getClient().getNamenode();
    region = NvmTestAccess.region(cluster.getNameNode());
    File shm = new File("/dev/shm");
    scratch =
        Files.createTempDirectory(
                (shm.isDirectory() ? shm : new File("target")).toPath(), "crash-sweep")
            .toFile();
    verifier = new CrashImageVerifier(scratch);
  }

  @AfterClass
  public static void stop() throws IOException {
    if (cluster != null) {
      cluster.shutdown();
    }
    if (scratch != null) {
      for (File f : scratch.listFiles()) {
        Files.delete(f.toPath());
      }
      Files.delete(scratch.toPath());
    }
  }

  /** Runs {@code op} with every persist barrier captured and checks every crash image. */
  static void sweep(String name, Op op) throws Exception {
    sweep(name, op, null);
  }

  /**
   * As {@link #sweep(String, Op)}; with a {@link Watch}, the attributes of the inode it names are
   * compared too: every crash image must recover to the attributes of the state before or of the
   * state after a batch, and those must be what the NameNode answered before and after the call.
   */
  static void sweep(String name, Op op, Watch w) throws Exception {
    long watched = 0;
    String servedBefore = null;
    if (w != null && w.before != null) {
      servedBefore = AttributeView.ofRpc(nn, w.before);
      watched = fileId(w.before);
    } else if (w != null) {
      servedBefore = AttributeView.ABSENT;
    }
    String prefix = new File(scratch, "cap").getPath();
    model.arm(region, prefix); // in the disk mode after a checkpoint: the log below is empty
    File before = new File(scratch, "before.region");
    CaptureModel.snapshot(region, before);
    long captured;
    try {
      op.run();
    } finally {
      captured = model.disarm(region);
    }
    String servedAfter = null;
    if (w != null) {
      servedAfter = AttributeView.ofRpc(nn, w.after);
      watched = watched != 0 ? watched : fileId(w.after);
    }
    List<String> problems = new ArrayList<>();
    Map<List<String>, String> allowed = new LinkedHashMap<>();
    java.util.Set<String> allowedAttributes = new LinkedHashSet<>();
    File beforeRecovered = recovered(before);
    allowed.put(CrashImageVerifier.state(beforeRecovered), "before");
    if (w != null) {
      String held = AttributeView.inRegion(beforeRecovered, watched);
      allowedAttributes.add(held);
      if (!held.equals(servedBefore)) {
        problems.add(
            "before the operation the region holds "
                + held
                + " where the NameNode answered "
                + servedBefore);
      }
    }
    int batches = 0;
    List<String> last = null;
    String lastAttributes = null;
    for (long k = 1; k <= captured; k++) {
      File applied = new File(prefix + "." + k + ".applied");
      if (applied.exists()) {
        File rec = recovered(applied);
        last = CrashImageVerifier.state(rec);
        allowed.putIfAbsent(last, "after batch " + ++batches);
        if (w != null) {
          lastAttributes = AttributeView.inRegion(rec, watched);
          allowedAttributes.add(lastAttributes);
        }
        Files.delete(applied.toPath());
      }
    }
    if (lastAttributes != null && !lastAttributes.equals(servedAfter)) {
      problems.add(
          "after the operation the region holds "
              + lastAttributes
              + " where the NameNode answers "
              + servedAfter);
    }
    if (batches == 0) {
      problems.add("the operation persisted nothing");
    }
    File live = new File(scratch, "live.region");
    CaptureModel.snapshot(region, live);
    List<String> liveState = CrashImageVerifier.state(recovered(live));
    if (last != null && !liveState.equals(last)) {
      problems.add(
          "the live region differs from the state after the last batch:"
              + CrashImageVerifier.diff(last, liveState));
    }
    int points = 0;
    for (long k = 1; k <= captured; k++) {
      for (String kind : CaptureModel.cases(scratch, prefix, k)) {
        File img = new File(prefix + "." + k + "." + kind);
        points++;
        CrashImageVerifier.Result r = verifier.verify(img, watched);
        for (String p : r.problems) {
          problems.add(model.point + " " + k + " (" + kind + "): " + p);
        }
        if (r.state != null && !allowed.containsKey(r.state)) {
          problems.add(
              model.point
                  + " "
                  + k
                  + " ("
                  + kind
                  + "): recovered to a state that is neither before nor after any batch;"
                  + " against the state before:"
                  + CrashImageVerifier.diff(allowed.keySet().iterator().next(), r.state)
                  + "\n  against the last:"
                  + CrashImageVerifier.diff(
                      last == null ? new ArrayList<String>() : last, r.state));
        }
        if (r.attributes != null && !allowedAttributes.contains(r.attributes)) {
          problems.add(
              model.point
                  + " "
                  + k
                  + " ("
                  + kind
                  + "): the attributes recovered to "
                  + r.attributes
                  + ", which is neither "
                  + servedBefore
                  + " (before) nor the state after a batch ("
                  + servedAfter
                  + " after the last)");
        }
        CaptureModel.deleteImage(img);
      }
    }
    ROWS.put(name, new int[] {batches, (int) captured, points, problems.size()});
    for (String p : problems) {
      VIOLATIONS.add(name + ": " + p);
    }
  }

  /** A recovered copy of {@code image} (recovery = a read-write open, as at NameNode start). */
  private static File recovered(File image) throws IOException {
    File f = new File(image.getPath() + ".rec");
    CaptureModel.copyImage(image, f);
    try (Region r =
        Region.open(f, org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode.EMULATED)) {
      // recovery ran in open
    }
    return f;
  }

  /**
   * Group commit with several batches in flight (docs/region-format.md §7.7): four client threads
   * each stage a mkdir while the region's commits are held back, then one commit takes all four. A
   * crash at any of its barriers must leave all four or none.
   */
  private static void fourMkdirsInOneGroup() throws Exception {
    long staged = region.stats().persists(), syncs = region.stats().syncs();
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failed = java.util.Collections.synchronizedList(new ArrayList<>());
    try (AutoCloseable paused = NvmTestAccess.pauseCommits(cluster.getNameNode())) {
      for (int i = 0; i < 4; i++) {
        String dir = "/s/g" + i;
        Thread t =
            new Thread(
                () -> {
                  try {
                    assertTrue(nn.mkdirs(dir, FsPermission.getDirDefault(), false));
                  } catch (Throwable e) {
                    failed.add(e);
                  }
                });
        t.start();
        threads.add(t);
      }
      long deadline = System.currentTimeMillis() + 60_000;
      while (region.stats().persists() < staged + 4 && System.currentTimeMillis() < deadline) {
        Thread.sleep(5);
      }
      assertEquals("four batches staged", staged + 4, region.stats().persists());
    }
    for (Thread t : threads) {
      t.join();
    }
    assertTrue("mkdirs failed: " + failed, failed.isEmpty());
    assertEquals("one group commit for the four", syncs + 1, region.stats().syncs());
  }

  // ------------------------------------------------------------------ raw RPC helpers

  static HdfsFileStatus create(String src, boolean overwrite) throws IOException {
    EnumSet<CreateFlag> flags =
        overwrite
            ? EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE)
            : EnumSet.of(CreateFlag.CREATE);
    return nn.create(
        src,
        FsPermission.getFileDefault(),
        CLIENT,
        new EnumSetWritable<CreateFlag>(flags),
        true,
        (short) 1,
        1024 * 1024,
        CryptoProtocolVersion.supported());
  }

  static void writeFile(String src, int bytes) throws IOException {
    try (FSDataOutputStream out = fs.create(new Path(src), true)) {
      out.write(new byte[bytes]);
    }
  }

  static long fileId(String src) throws IOException {
    return nn.getFileInfo(src).getFileId();
  }

  // ------------------------------------------------------------------ the sweep

  @Test
  public void everyCrashPointOfEveryMutationRecoversToAConsistentState() throws Exception {
    // a small namespace to work on
    fs.mkdirs(new Path("/s/tree/sub"));
    for (int i = 0; i < 3; i++) {
      writeFile("/s/tree/f" + i, 100);
      writeFile("/s/tree/sub/g" + i, 10);
    }
    writeFile("/s/file", 200);
    writeFile("/s/victim", 300);
    fs.mkdirs(new Path("/s/a"));
    fs.mkdirs(new Path("/s/b"));

    sweep("mkdirs", () -> assertTrue(nn.mkdirs("/s/d1", FsPermission.getDirDefault(), false)));
    sweep(
        "mkdirs (3 missing parents)",
        () -> assertTrue(nn.mkdirs("/s/p/q/r", FsPermission.getDirDefault(), true)));

    final long[] id = new long[1];
    sweep("create", () -> id[0] = create("/s/new", false).getFileId());
    final LocatedBlock[] lb = new LocatedBlock[1];
    sweep("addBlock", () -> lb[0] = nn.addBlock("/s/new", CLIENT, null, null, id[0], null));
    sweep(
        "fsync (persist blocks, last block length)", () -> nn.fsync("/s/new", id[0], CLIENT, 100));
    sweep("abandonBlock", () -> nn.abandonBlock(lb[0].getBlock(), id[0], "/s/new", CLIENT));
    sweep(
        "complete (file without blocks)",
        () -> assertTrue(nn.complete("/s/new", CLIENT, null, id[0])));

    final FSDataOutputStream[] out = new FSDataOutputStream[1];
    out[0] = fs.create(new Path("/s/streamed"), true);
    out[0].write(new byte[700]);
    sweep("write + hflush (addBlock, fsync)", () -> out[0].hflush());
    sweep("complete (close of a written file)", () -> out[0].close());

    sweep("create-overwrite (replaces a file with blocks)", () -> create("/s/victim", true));
    long victim = fileId("/s/victim");
    sweep(
        "complete (overwritten file)",
        () -> assertTrue(nn.complete("/s/victim", CLIENT, null, victim)));

    // 2.7.3 removes the old file, then refuses the new one (namespace quota already exceeded) and
    // logs nothing; the removal is committed alone when the write lock is released
    fs.mkdirs(new Path("/s/quota"));
    writeFile("/s/quota/x", 100);
    writeFile("/s/quota/y", 10);
    fs.setQuota(new Path("/s/quota"), 2, HdfsConstants.QUOTA_DONT_SET);
    sweep(
        "create-overwrite refused by a quota (the old file's removal)",
        () -> {
          try {
            create("/s/quota/x", true);
            throw new AssertionError("the namespace quota should refuse the create");
          } catch (RemoteException e) {
            // the old file is gone in memory, so in the region too
            assertEquals(NSQuotaExceededException.class.getName(), e.getClassName());
          }
        });

    sweep(
        "append",
        () ->
            nn.append(
                "/s/file", CLIENT, new EnumSetWritable<CreateFlag>(EnumSet.of(CreateFlag.APPEND))));
    sweep(
        "append with NEW_BLOCK (the last block stays complete)",
        () ->
            nn.append(
                "/s/streamed",
                CLIENT,
                new EnumSetWritable<CreateFlag>(
                    EnumSet.of(CreateFlag.APPEND, CreateFlag.NEW_BLOCK))));
    final LocatedBlock appendBlock =
        nn.getBlockLocations("/s/file", 0, Long.MAX_VALUE).getLastLocatedBlock();
    final LocatedBlock[] bumped = new LocatedBlock[1];
    sweep(
        "updateBlockForPipeline (new generation stamp)",
        () -> bumped[0] = nn.updateBlockForPipeline(appendBlock.getBlock(), CLIENT));
    sweep(
        "updatePipeline",
        () -> {
          ExtendedBlock nb = new ExtendedBlock(appendBlock.getBlock());
          nb.setGenerationStamp(bumped[0].getBlock().getGenerationStamp());
          nn.updatePipeline(
              CLIENT,
              appendBlock.getBlock(),
              nb,
              appendBlock.getLocations(),
              appendBlock.getStorageIDs());
        });
    create("/s/leased", false);
    sweep(
        "recoverLease (open file without blocks: closed at once)",
        () -> assertTrue(nn.recoverLease("/s/leased", OTHER)));

    // lease recovery with a block: the NameNode starts block recovery; the DataNode's answer,
    // commitBlockSynchronization, is sent here (heartbeats are off, so the DataNode never starts
    // it)
    long lid = create("/s/recovered", false).getFileId();
    final LocatedBlock rb = nn.addBlock("/s/recovered", CLIENT, null, null, lid, null);
    DataNode dn = cluster.getDataNodes().get(0);
    DataNodeTestUtils.setHeartbeatsDisabledForTests(dn, true);
    try {
      sweep(
          "recoverLease (starts block recovery)",
          () -> assertFalse(nn.recoverLease("/s/recovered", OTHER)));
      INodeFile f = cluster.getNamesystem().getFSDirectory().getINode("/s/recovered").asFile();
      final long recoveryId =
          ((BlockInfoContiguousUnderConstruction) f.getLastBlock()).getBlockRecoveryId();
      sweep(
          "commitBlockSynchronization (close)",
          () ->
              cluster
                  .getNameNodeRpc()
                  .commitBlockSynchronization(
                      rb.getBlock(),
                      recoveryId,
                      0,
                      true,
                      false,
                      rb.getLocations(),
                      rb.getStorageIDs()));
    } finally {
      DataNodeTestUtils.setHeartbeatsDisabledForTests(dn, false);
    }

    sweep(
        "rename file (same directory)",
        () -> assertTrue(nn.rename("/s/tree/f0", "/s/tree/f0-renamed")));
    sweep("rename file (across directories)", () -> assertTrue(nn.rename("/s/tree/f1", "/s/a/f1")));
    sweep("rename directory", () -> assertTrue(nn.rename("/s/tree/sub", "/s/b/sub-moved")));
    sweep(
        "rename over an existing file",
        () -> nn.rename2("/s/tree/f2", "/s/streamed", Options.Rename.OVERWRITE));
    sweep("setPermission", () -> nn.setPermission("/s/a/f1", new FsPermission((short) 0600)));
    sweep("setOwner", () -> nn.setOwner("/s/a/f1", "someone", "somegroup"));
    sweep(
        "setOwner to a 1000-character user (a STRING_EXT chain)",
        () -> nn.setOwner("/s/a/f1", new String(new char[1000]).replace('\0', 'u'), null));
    sweep(
        "free the idle strings (clean stop, nearly full region)",
        () -> assertTrue(NvmTestAccess.reclaimIdleStrings(cluster.getNameNode()) >= 1));
    sweep(
        "four mkdirs in flight at once, committed as one group",
        CrashPointSweepTest::fourMkdirsInOneGroup);
    sweep("setTimes", () -> nn.setTimes("/s/a/f1", 1234567890000L, 1234567891000L));
    sweep(
        "getBlockLocations (an open updating the access time setTimes left old: OP_TIMES)",
        () -> nn.getBlockLocations("/s/a/f1", 0, 1));
    sweep("setReplication", () -> assertTrue(nn.setReplication("/s/a/f1", (short) 3)));
    sweep("setQuota", () -> nn.setQuota("/s/b", 1000, 1L << 30, null));
    sweep("setStoragePolicy (file)", () -> nn.setStoragePolicy("/s/a/f1", "COLD"));
    sweep("allowSnapshot", () -> nn.allowSnapshot("/s/a"));
    sweep("disallowSnapshot", () -> nn.disallowSnapshot("/s/a"));
    sweep("allowSnapshot (the root: snapshottable before, quota 0)", () -> nn.allowSnapshot("/"));
    sweep("disallowSnapshot (the root: quota 0 again)", () -> nn.disallowSnapshot("/"));
    sweep("delete file", () -> assertTrue(nn.delete("/s/a/f1", false)));
    nn.allowSnapshot("/s/b"); // the recursive delete takes a snapshottable directory with it
    sweep("delete (recursive tree)", () -> assertTrue(nn.delete("/s/b", true)));

    FeatureSweeps.sweepTokens();
    FeatureSweeps.sweepCache();
    FeatureSweeps.sweepConcat();
    FeatureSweeps.sweepTruncate();
    FeatureSweeps.sweepSymlinks();
    FeatureSweeps.sweepAttributes();
    FeatureSweeps.sweepSnapshots();

    report();
    assertEquals("violations:\n" + String.join("\n", VIOLATIONS), 0, VIOLATIONS.size());
  }

  private static void report() throws IOException {
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            "%-64s %7s %12s %7s %10s%n",
            "operation", "batches", model.point + "s", "images", "violations"));
    int points = 0, images = 0, violations = 0;
    for (Map.Entry<String, int[]> e : ROWS.entrySet()) {
      int[] r = e.getValue();
      b.append(String.format("%-64s %7d %12d %7d %10d%n", e.getKey(), r[0], r[1], r[2], r[3]));
      points += r[1];
      images += r[2];
      violations += r[3];
    }
    b.append(
        String.format(
            "total: %d operations, %ss: %d, images checked: %d, violations: %d%n",
            ROWS.size(), model.point, points, images, violations));
    for (String v : VIOLATIONS) {
      b.append(v).append('\n');
    }
    File out = new File(model.report);
    Files.write(out.toPath(), b.toString().getBytes(StandardCharsets.UTF_8));
    PrintStream ps = System.out;
    ps.print(b);
  }
}
