package org.nvmnn.it.core;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.io.IOUtils;
import org.junit.After;
import org.junit.Test;

/**
 * concat (issue 25) is persisted in one batch and comes back after a restart: the target holds the
 * sources' blocks after its own, in order (enough of them for a block-extension chain), reads back
 * byte for byte, the sources are gone, the parent's mtime is the concat's, and a new file can be
 * concatenated again after the restart. The same calls run against the stock NameNode give the
 * reference.
 */
public class ConcatRestartTest {
  private static final int BLOCK = NamespaceOpsTestBase.BLOCK;
  private MiniDFSCluster cluster;

  @After
  public void tearDown() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  private static byte[] write(DistributedFileSystem fs, Path p, int blocks, int seed)
      throws Exception {
    byte[] data = new byte[blocks * BLOCK - (seed % 3) * 7]; // a last block not always full
    new java.util.Random(seed).nextBytes(data);
    try (FSDataOutputStream out = fs.create(p, (short) 1)) {
      out.write(data);
    }
    return data;
  }

  private static byte[] read(DistributedFileSystem fs, Path p) throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (FSDataInputStream in = fs.open(p)) {
      IOUtils.copyBytes(in, b, 4096);
    }
    return b.toByteArray();
  }

  private static List<Long> blockIds(DistributedFileSystem fs, Path p) throws Exception {
    List<Long> ids = new ArrayList<>();
    for (LocatedBlock b :
        fs.getClient().getLocatedBlocks(p.toString(), 0, Long.MAX_VALUE).getLocatedBlocks()) {
      ids.add(b.getBlock().getBlockId());
    }
    return ids;
  }

  /** Runs the scenario; returns what was seen after the restarts (block ids excluded). */
  private List<String> scenario(boolean nvm) throws Exception {
    cluster = MigrationTestSupport.cluster(getClass(), nvm ? "n" : "s", nvm, 1);
    DistributedFileSystem fs = cluster.getFileSystem();
    Path dir = new Path("/c");
    Path trg = new Path(dir, "target");
    Path[] srcs = {new Path(dir, "s1"), new Path(dir, "s2"), new Path(dir, "s3")};
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    expected.write(write(fs, trg, 2, 1));
    List<Long> expectedIds = new ArrayList<>(blockIds(fs, trg));
    for (int i = 0; i < srcs.length; i++) {
      expected.write(write(fs, srcs[i], 3, i + 2));
      expectedIds.addAll(blockIds(fs, srcs[i]));
    }
    fs.concat(trg, srcs);
    long mtime = fs.getFileStatus(dir).getModificationTime();
    assertEquals(expectedIds, blockIds(fs, trg)); // 11 blocks: an extension chain

    cluster.restartNameNode(0);
    cluster.waitActive();
    fs = cluster.getFileSystem();
    assertEquals("the target's blocks after the restart", expectedIds, blockIds(fs, trg));
    assertArrayEquals(expected.toByteArray(), read(fs, trg));
    for (Path s : srcs) {
      assertFalse(s + " came back", fs.exists(s));
    }
    assertEquals(mtime, fs.getFileStatus(dir).getModificationTime());

    Path more = new Path(dir, "more");
    expected.write(write(fs, more, 1, 9));
    fs.concat(trg, new Path[] {more});
    cluster.restartNameNode(0);
    cluster.waitActive();
    fs = cluster.getFileSystem();
    assertArrayEquals(expected.toByteArray(), read(fs, trg));
    List<String> seen = new ArrayList<>();
    seen.add("length " + fs.getFileStatus(trg).getLen());
    seen.add("blocks " + blockIds(fs, trg).size());
    seen.add("children " + fs.listStatus(dir).length);
    return seen;
  }

  /** What {@code nn.concat(trg, srcs)} answers: "ok" or the exception's class and message. */
  private static String answer(MiniDFSCluster c, String trg, String... srcs) {
    try {
      c.getNameNodeRpc().concat(trg, srcs);
      return "ok";
    } catch (Throwable t) {
      return t.getClass().getName() + ": " + t.getMessage();
    }
  }

  /**
   * Calls the stock NameNode refuses get its answer from the NVM NameNode too (the fuzzer found a
   * relative source path failing the NVM NameNode's early resolution instead).
   */
  private List<String> refusals(boolean nvm) throws Exception {
    cluster = MigrationTestSupport.cluster(getClass(), "r" + nvm, nvm, 1);
    DistributedFileSystem fs = cluster.getFileSystem();
    write(fs, new Path("/d/closed"), 1, 1);
    FSDataOutputStream open = fs.create(new Path("/d/open"), (short) 1); // under construction
    open.hflush();
    List<String> out = new ArrayList<>();
    out.add(answer(cluster, "/d/open", "/d/open", "rel/x"));
    out.add(answer(cluster, "/d/closed", "rel/x"));
    out.add(answer(cluster, "/d/closed", "/d/missing"));
    out.add(answer(cluster, "/d/closed", "/d/closed"));
    out.add(answer(cluster, "/d/closed", new String[] {null}));
    open.close();
    return out;
  }

  @Test(timeout = 180_000)
  public void refusedConcatsGetTheStockAnswer() throws Exception {
    List<String> stock = refusals(false);
    cluster.shutdown();
    cluster = null;
    assertEquals(stock, refusals(true));
  }

  @Test(timeout = 180_000)
  public void concatSurvivesRestartsAsInTheStockNameNode() throws Exception {
    List<String> stock = scenario(false);
    cluster.shutdown();
    cluster = null;
    assertEquals(stock, scenario(true));
  }
}
