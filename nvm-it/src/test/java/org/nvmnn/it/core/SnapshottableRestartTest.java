package org.nvmnn.it.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus;
import org.junit.After;
import org.junit.Test;

/**
 * Allowing and disallowing snapshots (issue 40, step 1: the directory page's DI_SNAPSHOT word,
 * docs/snapshots.md) answer and survive restarts as in the stock NameNode: the snapshottable
 * listing, the root's quota of 0 until snapshots are allowed on it and again after they are
 * disallowed, the refusal of nested snapshottable directories, a rename and a recursive delete of
 * snapshottable directories, and the content summary's directory count. The same calls against the
 * stock NameNode give the reference. Snapshots themselves are still refused in NVM mode.
 */
public class SnapshottableRestartTest {
  private MiniDFSCluster cluster;

  @After
  public void tearDown() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  /** The snapshottable directories, with what each status says apart from its times. */
  private static String listing(DistributedFileSystem fs) throws Exception {
    List<String> out = new ArrayList<>();
    SnapshottableDirectoryStatus[] dirs = fs.getSnapshottableDirListing();
    for (SnapshottableDirectoryStatus d :
        dirs == null ? new SnapshottableDirectoryStatus[0] : dirs) {
      out.add(
          d.getFullPath()
              + " snapshots="
              + d.getSnapshotNumber()
              + "/"
              + d.getSnapshotQuota()
              + " "
              + d.getDirStatus().getPermission()
              + " "
              + d.getDirStatus().getOwner());
    }
    return out.toString();
  }

  private interface Call {
    void run(DistributedFileSystem fs) throws Exception;
  }

  /**
   * What a call answers: "ok", or the class and the first line of the message of what it threw (a
   * RemoteException's message goes on with the server's stack, which names the NVM classes).
   */
  private static String answer(DistributedFileSystem fs, Call c) {
    try {
      c.run(fs);
      return "ok";
    } catch (Throwable t) {
      return t.getClass().getSimpleName() + ": " + String.valueOf(t.getMessage()).split("\n")[0];
    }
  }

  /** What reads of a directory's .snapshot answer before any snapshot exists. */
  private static List<String> dotSnapshotReads(DistributedFileSystem fs, String dir) {
    List<String> out = new ArrayList<>();
    Path snaps = new Path(dir + "/.snapshot");
    out.add(
        dir
            + " ls .snapshot: "
            + answer(fs, f -> out.add(f.listStatus(snaps).length + " entries")));
    out.add(
        dir
            + " stat .snapshot: "
            + answer(fs, f -> out.add("dir " + f.getFileStatus(snaps).isDirectory())));
    out.add(
        dir
            + " diff current/current: "
            + answer(fs, f -> out.add(f.getSnapshotDiffReport(new Path(dir), "", "").toString())));
    out.add(
        dir
            + " diff s1/current: "
            + answer(fs, f -> f.getSnapshotDiffReport(new Path(dir), "s1", "")));
    out.add(dir + " mkdir in .snapshot: " + answer(fs, f -> f.mkdirs(new Path(snaps, "x"))));
    return out;
  }

  private DistributedFileSystem restart() throws Exception {
    cluster.restartNameNode(0);
    cluster.waitActive();
    return cluster.getFileSystem();
  }

  private List<String> scenario(boolean nvm) throws Exception {
    cluster = MigrationTestSupport.cluster(getClass(), nvm ? "n" : "s", nvm, 0);
    DistributedFileSystem fs = cluster.getFileSystem();
    List<String> seen = new ArrayList<>();
    fs.mkdirs(new Path("/a/b"));
    fs.mkdirs(new Path("/c/d"));
    fs.mkdirs(new Path("/e"));
    seen.add("fresh: " + listing(fs));
    fs.allowSnapshot(new Path("/a"));
    fs.allowSnapshot(new Path("/c"));
    fs.allowSnapshot(new Path("/e"));
    seen.add(answer(fs, f -> f.allowSnapshot(new Path("/a")))); // again: nothing changes
    seen.add("nested below: " + answer(fs, f -> f.allowSnapshot(new Path("/a/b"))));
    seen.add("nested above: " + answer(fs, f -> f.allowSnapshot(new Path("/"))));
    fs.disallowSnapshot(new Path("/e"));
    seen.add(answer(fs, f -> f.disallowSnapshot(new Path("/e")))); // again: nothing changes
    seen.add(answer(fs, f -> f.disallowSnapshot(new Path("/nope"))));
    seen.add("allowed: " + listing(fs));
    fs = restart();
    seen.add("after a restart: " + listing(fs));
    seen.addAll(dotSnapshotReads(fs, "/a"));
    seen.addAll(dotSnapshotReads(fs, "/e")); // not snapshottable any more

    fs.rename(new Path("/c"), new Path("/e/c")); // /e is not snapshottable any more
    fs.delete(new Path("/a"), true);
    seen.add("renamed and deleted: " + listing(fs));
    fs = restart();
    seen.add("after a restart: " + listing(fs));
    ContentSummary cs = fs.getContentSummary(new Path("/"));
    seen.add("directories " + cs.getDirectoryCount());

    // the root: snapshottable with a quota of 0 until snapshots are allowed on it
    fs.disallowSnapshot(new Path("/e/c"));
    fs.allowSnapshot(new Path("/"));
    seen.add("root allowed: " + listing(fs));
    fs = restart();
    seen.add("after a restart: " + listing(fs));
    seen.add("nested below the root: " + answer(fs, f -> f.allowSnapshot(new Path("/e"))));
    fs.disallowSnapshot(new Path("/"));
    fs = restart();
    seen.add("root disallowed, restarted: " + listing(fs));
    fs.allowSnapshot(new Path("/e"));
    fs = restart();
    seen.add("again: " + listing(fs));
    return seen;
  }

  @Test(timeout = 300_000)
  public void allowAndDisallowSnapshotSurviveRestartsAsInTheStockNameNode() throws Exception {
    List<String> stock = scenario(false);
    cluster.shutdown();
    cluster = null;
    List<String> nvm = scenario(true);
    assertTrue(stock.toString(), stock.get(3).contains("Nested snapshottable directories"));
    assertTrue(stock.toString(), stock.get(7).contains(", /c snapshots=0/65536"));
    assertTrue(stock.toString(), stock.contains("0 entries")); // ls /a/.snapshot
    assertTrue(
        stock.toString(),
        stock.stream().anyMatch(s -> s.startsWith("/a diff s1/current: SnapshotException")));
    assertEquals(stock, nvm);
  }

  @Test(timeout = 300_000)
  public void snapshotsThemselvesAreStillRefused() throws Exception {
    cluster = MigrationTestSupport.cluster(getClass(), "r", true, 0);
    DistributedFileSystem fs = cluster.getFileSystem();
    fs.mkdirs(new Path("/a"));
    fs.allowSnapshot(new Path("/a"));
    String refused = answer(fs, f -> f.createSnapshot(new Path("/a"), "s1"));
    assertTrue(refused, refused.contains("NVM NameNode: snapshots are not supported"));
    fs = restart();
    assertEquals(
        "[/a snapshots=0/65536 rwxr-xr-x " + System.getProperty("user.name") + "]", listing(fs));
  }
}
