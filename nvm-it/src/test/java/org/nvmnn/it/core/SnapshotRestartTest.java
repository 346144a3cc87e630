package org.nvmnn.it.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus;
import org.apache.hadoop.hdfs.server.namenode.NvmTestAccess;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.junit.After;
import org.junit.Test;

/**
 * Snapshots in the region (docs/snapshots.md, the preview): one scenario run against a stock
 * NameNode and an NVM one with an inode cache of 8 files, restarting the NameNode between its
 * phases; after each phase and each restart every snapshot's listing (names, sizes, permissions,
 * owners), every diff report between consecutive snapshots and to the current tree, the content
 * summaries and the snapshottable listing must be the stock NameNode's. The phases: snapshots over
 * a directory of files; deletes (a file, a subtree), creates, moves into a subdirectory, permission
 * changes, appends, a truncate and a concat under them; reads that evict the changed files from the
 * cache; a second snapshot, a rename of a snapshot, more changes; then deleting the snapshots one
 * by one.
 */
public class SnapshotRestartTest {
  static {
    // the write-through's debugging checks (read once, before the NameNode's classes load; each
    // test class has its own JVM): a batch that frees a directory page a live inode still names,
    // or leaves a snapshot record unequal to memory, fails the call that caused it
    System.setProperty("nvm.debug.parentLinks", "true");
    System.setProperty("nvm.debug.snapshotSweep", "true");
  }

  private MiniDFSCluster cluster;

  @After
  public void tearDown() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  /** An NVM MiniDFSCluster with the snapshot preview on and {@code dataNodes} DataNodes. */
  private DistributedFileSystem nvmCluster(String name, int dataNodes) throws Exception {
    cluster =
        MigrationTestSupport.cluster(
            getClass(), name, true, dataNodes, NvmConfigKeys.NVM_SNAPSHOTS_PREVIEW_KEY + "=true");
    return cluster.getFileSystem();
  }

  interface Step {
    void run() throws Exception;
  }

  /** "ok", or the class and first line of what the call threw. */
  static String answer(Step s) {
    try {
      s.run();
      return "ok";
    } catch (Throwable t) {
      return t.getClass().getSimpleName() + ": " + String.valueOf(t.getMessage()).split("\n")[0];
    }
  }

  private static void tree(DistributedFileSystem fs, Path p, List<String> out) throws Exception {
    for (FileStatus s : fs.listStatus(p)) {
      out.add(
          s.getPath().toUri().getPath()
              + " "
              + (s.isDirectory() ? "d" : "f" + s.getLen() + " r" + s.getReplication())
              + " "
              + s.getPermission()
              + " "
              + s.getOwner());
      if (s.isDirectory()) {
        tree(fs, s.getPath(), out);
      }
    }
  }

  /** Everything the NameNode answers about the namespace and its snapshots. */
  static List<String> state(DistributedFileSystem fs, String when) throws Exception {
    return state(fs, when, "/");
  }

  /** The same, for the tree under {@code top} and the snapshottable directories in it. */
  static List<String> state(DistributedFileSystem fs, String when, String top) throws Exception {
    List<String> out = new ArrayList<>();
    out.add("== " + when);
    tree(fs, new Path(top), out);
    SnapshottableDirectoryStatus[] dirs = fs.getSnapshottableDirListing();
    List<String> every = new ArrayList<>();
    for (SnapshottableDirectoryStatus d :
        dirs == null ? new SnapshottableDirectoryStatus[0] : dirs) {
      every.add(d.getFullPath().toString());
    }
    // the whole snapshottable listing, outside top too: a directory that should not be in it
    // need not be under top, or anywhere in the tree
    java.util.Collections.sort(every);
    out.add("snapshottable " + every);
    for (SnapshottableDirectoryStatus d :
        dirs == null ? new SnapshottableDirectoryStatus[0] : dirs) {
      Path root = d.getFullPath();
      if (!(root.toUri().getPath() + "/").startsWith(top.endsWith("/") ? top : top + "/")) {
        continue;
      }
      out.add(root + " snapshots=" + d.getSnapshotNumber());
      List<String> names = new ArrayList<>();
      for (FileStatus s : fs.listStatus(new Path(root, ".snapshot"))) {
        names.add(s.getPath().getName());
        out.add("snapshot " + s.getPath().getName() + " " + s.getPermission());
        tree(fs, s.getPath(), out);
        out.add("cs " + fs.getContentSummary(s.getPath()));
      }
      names.add("");
      for (int i = 0; i + 1 < names.size(); i++) {
        String from = names.get(i);
        String next = names.get(i + 1);
        for (String to : next.isEmpty() ? new String[] {""} : new String[] {next, ""}) {
          out.add(
              "diff "
                  + from
                  + " -> "
                  + to
                  + " "
                  + answer(() -> out.add(fs.getSnapshotDiffReport(root, from, to).toString())));
        }
      }
      out.add("cs " + fs.getContentSummary(root));
    }
    return out;
  }

  /**
   * A restart. The stock NameNode checkpoints first, so it restarts from an fsimage, which keeps
   * its diffs as memory had them, as the region does: replaying its edit log instead rebuilds them
   * by running the operations again, and 2.7.3's content summary, which counts a file once per
   * diff, can then count fewer files under a snapshot than before the restart (seen in this
   * scenario).
   */
  private DistributedFileSystem restart(List<String> seen, String when) throws Exception {
    List<String> mtimes = new ArrayList<>();
    mtimes(cluster.getFileSystem(), new Path("/"), mtimes);
    boolean nvm = NvmTestAccess.isNvm(cluster.getNameNode(0));
    List<String> reports = nvm ? diffReports(cluster.getFileSystem()) : null;
    if (!NvmTestAccess.isNvm(cluster.getNameNode(0))) {
      DistributedFileSystem fs = cluster.getFileSystem();
      fs.setSafeMode(HdfsConstants.SafeModeAction.SAFEMODE_ENTER);
      fs.saveNamespace();
      fs.setSafeMode(HdfsConstants.SafeModeAction.SAFEMODE_LEAVE);
    }
    cluster.restartNameNode(0, true);
    cluster.waitActive();
    DistributedFileSystem fs = cluster.getFileSystem();
    List<String> after = new ArrayList<>();
    mtimes(fs, new Path("/"), after);
    // each NameNode's own: the times differ between the two runs
    assertEquals("modification times across the restart " + when, mtimes, after);
    if (nvm) {
      // (a stock NameNode restarted from its fsimage lists some directories as modified that it
      // did not list before: its loader makes copies with type quotas 0 and xattrs of their own)
      assertEquals("diff reports across the restart " + when, reports, diffReports(fs));
    }
    seen.addAll(state(fs, "after a restart " + when));
    return fs;
  }

  /** Every snapshottable directory's diff reports, each snapshot to the next and to current. */
  private static List<String> diffReports(DistributedFileSystem fs) throws Exception {
    List<String> out = new ArrayList<>();
    for (String line : state(fs, "")) {
      if (line.startsWith("diff ") || line.startsWith("Difference between")) {
        out.add(line);
      }
    }
    return out;
  }

  /** Every path of the current tree under {@code p} with its modification time. */
  private static void mtimes(DistributedFileSystem fs, Path p, List<String> out) throws Exception {
    for (FileStatus s : fs.listStatus(p)) {
      out.add(s.getPath().toUri().getPath() + " " + s.getModificationTime());
      if (s.isDirectory()) {
        mtimes(fs, s.getPath(), out);
      }
    }
  }

  /** The status of f{@code from}..f19: more files than the inode cache of 8 holds. */
  private static void evictingReads(DistributedFileSystem fs, Path d, int from, List<String> seen) {
    for (int i = from; i < 20; i++) {
      final int k = i;
      seen.add(answer(() -> fs.getFileStatus(new Path(d, "f" + k))));
    }
  }

  private static void write(DistributedFileSystem fs, Path p, int bytes) throws Exception {
    try (FSDataOutputStream out = fs.create(p, (short) 1)) {
      out.write(new byte[bytes]);
    }
  }

  /**
   * Where a one-byte file (a block of the default size reserved) starts to be refused under a space
   * quota on {@code d} says what the NameNode counts as used there, to the byte (the refusal names
   * it): after a restart, the usage the restore computed, cold files counted from their pages. Run
   * where no file is under construction or recovery (a truncate's last block counts at the
   * preferred block size until its DataNode recovers it, whenever that is).
   */
  private static void spaceQuotaProbe(DistributedFileSystem fs, Path d, List<String> seen)
      throws Exception {
    long space = fs.getContentSummary(d).getSpaceConsumed() + fs.getDefaultBlockSize(d);
    String flips = "";
    String last = null;
    for (long q = space - 40; q <= space + 40; q++) {
      final long quota = q;
      answer(() -> fs.setQuota(d, HdfsConstants.QUOTA_DONT_SET, quota));
      String got = answer(() -> write(fs, new Path(d, "q"), 1));
      answer(() -> fs.delete(new Path(d, "q"), false));
      if (!got.equals(last)) {
        flips += " at " + (q - space) + ": " + got;
        last = got;
      }
    }
    assertTrue(flips, flips.contains(": ok") && flips.contains("QuotaExceeded"));
    seen.add("space quota" + flips);
    seen.add(
        "space quota off "
            + answer(
                () -> fs.setQuota(d, HdfsConstants.QUOTA_DONT_SET, HdfsConstants.QUOTA_RESET)));
  }

  private List<String> scenario(boolean nvm) throws Exception {
    cluster =
        MigrationTestSupport.cluster(
            getClass(),
            nvm ? "n" : "s",
            nvm,
            1,
            NvmConfigKeys.NVM_CACHE_INODES_KEY + "=8",
            NvmConfigKeys.NVM_SNAPSHOTS_PREVIEW_KEY + "=true");
    DistributedFileSystem f0 = cluster.getFileSystem();
    DistributedFileSystem fs = f0;
    List<String> seen = new ArrayList<>();
    Path d = new Path("/d");
    fs.mkdirs(new Path(d, "sub/deep"));
    for (int i = 0; i < 20; i++) {
      write(fs, new Path(d, "f" + i), i + 1);
    }
    write(fs, new Path(d, "sub/deep/x"), 7);
    fs.allowSnapshot(d);
    seen.add("s1 " + answer(() -> f0.createSnapshot(d, "s1")));
    seen.addAll(state(fs, "s1"));
    fs = restart(seen, "s1");
    spaceQuotaProbe(fs, d, seen);
    DistributedFileSystem f1 = fs;
    seen.add(answer(() -> f1.delete(new Path(d, "f1"), false)));
    seen.add(answer(() -> write(f1, new Path(d, "g1"), 3)));
    seen.add(answer(() -> f1.setPermission(new Path(d, "f3"), new FsPermission((short) 0600))));
    seen.add(answer(() -> f1.setReplication(new Path(d, "f7"), (short) 2)));
    seen.add(answer(() -> f1.setOwner(new Path(d, "f8"), "alice", "staff")));
    seen.add(answer(() -> f1.append(new Path(d, "f4")).close()));
    seen.add(answer(() -> f1.mkdirs(new Path(d, "new/dir"))));
    seen.add(answer(() -> write(f1, new Path(d, "new/dir/y"), 2)));
    seen.add(answer(() -> f1.delete(new Path(d, "sub"), true)));
    seen.add(answer(() -> f1.setPermission(d, new FsPermission((short) 0700))));
    seen.add("truncate " + answer(() -> f1.truncate(new Path(d, "f19"), 3)));
    seen.add(
        "concat " + answer(() -> f1.concat(new Path(d, "f18"), new Path[] {new Path(d, "f17")})));
    // (a source created after the snapshot would leave 2.7.3's created list naming a removed file,
    // and every later listing of the snapshot fails, on a stock NameNode too)
    evictingReads(f1, d, 5, seen);
    seen.addAll(state(fs, "changes after s1"));
    fs = restart(seen, "changes after s1");
    DistributedFileSystem f2 = fs;
    seen.add("s2 " + answer(() -> f2.createSnapshot(d, "s2")));
    seen.add(answer(() -> f2.delete(new Path(d, "f5"), false)));
    seen.add(answer(() -> f2.delete(new Path(d, "new"), true)));
    seen.add(answer(() -> write(f2, new Path(d, "f1"), 11))); // the name s1 holds a deleted f1 for
    seen.add(answer(() -> write(f2, new Path(d, "h"), 5))); // in s2's created list
    seen.add("rename s2 " + answer(() -> f2.renameSnapshot(d, "s2", "t2")));
    seen.add("s3 " + answer(() -> f2.createSnapshot(d, "s3")));
    evictingReads(f2, d, 6, seen); // h leaves the cache of 8 unless something keeps it
    // h is in s3: 2.7.3 replaces it with a WithName in the created list of s2's diff too, and
    // checks that the list held the current object (the inode cache keeps it: InodeCache.pinned)
    seen.add("mv h " + answer(() -> f2.rename(new Path(d, "h"), new Path(d, "h2"))));
    seen.add(answer(() -> f2.setTimes(new Path(d, "f9"), 12345L, 67890L)));
    seen.addAll(state(fs, "s2 and s3"));
    fs = restart(seen, "s2 and s3");
    // a namespace quota after the restart: its usage counts what the snapshots hold (2.7.3's
    // cached usage, which the restart recomputed), so where a create starts to be refused must be
    // where the stock NameNode starts to refuse it: quotas from 12 below the content summary's
    // count
    // to 2 above, one create (then deleted) under each
    DistributedFileSystem fq = fs;
    org.apache.hadoop.fs.ContentSummary cs = fq.getContentSummary(d);
    long used = cs.getDirectoryCount() + cs.getFileCount();
    for (long q = Math.max(1, used - 12); q <= used + 2; q++) {
      final long quota = q;
      seen.add(
          "quota used-"
              + (used - q)
              + " "
              + answer(() -> fq.setQuota(d, quota, HdfsConstants.QUOTA_DONT_SET))
              + " create "
              + answer(() -> write(fq, new Path(d, "q"), 1))
              + " "
              + answer(() -> fq.delete(new Path(d, "q"), false)));
    }
    seen.add(
        "quota off "
            + answer(
                () -> fq.setQuota(d, HdfsConstants.QUOTA_RESET, HdfsConstants.QUOTA_DONT_SET)));
    // renames out of snapshots, across two snapshottable trees and within one (INodeReference)
    DistributedFileSystem f5 = fs;
    Path e = new Path("/e");
    seen.add(answer(() -> f5.mkdirs(e)));
    seen.add(answer(() -> f5.allowSnapshot(e)));
    seen.add("es1 " + answer(() -> f5.createSnapshot(e, "es1")));
    seen.add("mv out " + answer(() -> f5.rename(new Path(d, "f6"), new Path(e, "f6"))));
    seen.add("mkdir dd " + answer(() -> f5.mkdirs(new Path(d, "dd/x"))));
    seen.add(answer(() -> write(f5, new Path(d, "dd/x/y"), 4)));
    seen.add("s4 " + answer(() -> f5.createSnapshot(d, "s4")));
    seen.add("mv dir out " + answer(() -> f5.rename(new Path(d, "dd"), new Path(e, "dd"))));
    seen.add("mv back " + answer(() -> f5.rename(new Path(e, "f6"), new Path(d, "f6b"))));
    seen.add("mv within " + answer(() -> f5.rename(new Path(d, "f10"), new Path(d, "f10r"))));
    // g1 was created after s1 (s1's created list holds it) and read since by other objects' reads
    seen.add("mv created " + answer(() -> f5.rename(new Path(d, "g1"), new Path(d, "g1r"))));
    seen.add(
        "rename2 over "
            + answer(
                () ->
                    f5.rename(
                        new Path(d, "f11"),
                        new Path(d, "f12"),
                        org.apache.hadoop.fs.Options.Rename.OVERWRITE)));
    seen.add(
        "setPermission moved "
            + answer(
                () -> f5.setPermission(new Path(e, "dd/x/y"), new FsPermission((short) 0640))));
    seen.addAll(state(fs, "renames"));
    fs = restart(seen, "renames");
    DistributedFileSystem f6 = fs;
    seen.add("rm moved " + answer(() -> f6.delete(new Path(e, "dd"), true)));
    // a file renamed out of a snapshot into a directory that is then deleted whole: only the
    // snapshot's old place keeps it (its page must not stay under the freed directory)
    seen.add(answer(() -> f6.mkdirs(new Path("/x/y"))));
    seen.add("mv to x " + answer(() -> f6.rename(new Path(d, "f13"), new Path("/x/y/f13"))));
    seen.add("rm x " + answer(() -> f6.delete(new Path("/x"), true)));
    seen.add(answer(() -> f6.mkdirs(new Path(e, "p/q"))));
    seen.add("es2 " + answer(() -> f6.createSnapshot(e, "es2")));
    // a directory es2 keeps, deleted with a file created after es2: the delete removes only the
    // file, and the modification time it gives p (not q) must survive the restart
    seen.add(answer(() -> write(f6, new Path(e, "p/q/new"), 1)));
    Thread.sleep(5);
    seen.add("rm kept dir " + answer(() -> f6.delete(new Path(e, "p/q"), true)));
    seen.add("mv again " + answer(() -> f6.rename(new Path(d, "f6b"), new Path(e, "f6c"))));
    seen.addAll(state(fs, "renamed and deleted"));
    fs = restart(seen, "renamed and deleted");
    DistributedFileSystem f3 = fs;
    seen.add("del t2 " + answer(() -> f3.deleteSnapshot(d, "t2")));
    seen.addAll(state(fs, "t2 deleted"));
    fs = restart(seen, "t2 deleted");
    DistributedFileSystem f4 = fs;
    seen.add("del s1 " + answer(() -> f4.deleteSnapshot(d, "s1")));
    seen.add("del es1 " + answer(() -> f4.deleteSnapshot(e, "es1")));
    seen.addAll(state(fs, "s1 and es1 deleted"));
    fs = restart(seen, "s1 and es1 deleted");
    DistributedFileSystem f7 = fs;
    for (String[] snap : new String[][] {{"/d", "s3"}, {"/d", "s4"}, {"/e", "es2"}}) {
      seen.add(
          "del " + snap[1] + " " + answer(() -> f7.deleteSnapshot(new Path(snap[0]), snap[1])));
    }
    seen.add("disallow " + answer(() -> f7.disallowSnapshot(d)));
    seen.add("disallow e " + answer(() -> f7.disallowSnapshot(e)));
    seen.addAll(state(fs, "all deleted"));
    restart(seen, "all deleted");
    return seen;
  }

  /**
   * A directory with an xattr and one with a namespace quota (no type quota), each copied by a
   * setTimes after the snapshot with the attributes 2.7.3 compares unchanged: the diff report does
   * not list them, and a restart from the region keeps it so. (A stock NameNode restarted from its
   * fsimage lists both: its loader makes copies with type quotas 0 and xattrs of their own, which
   * 2.7.3 compares by identity. The NVM restore shares equal xattrs and keeps type quotas -1.)
   */
  @Test(timeout = 600_000)
  public void copiesWithUnchangedAttributesStayUnlistedAcrossARestart() throws Exception {
    DistributedFileSystem fs = nvmCluster("c", 1);
    Path e = new Path("/e");
    fs.mkdirs(new Path(e, "r"));
    fs.setXAttr(new Path(e, "r"), "user.k", new byte[] {1, 2});
    fs.mkdirs(new Path(e, "t"));
    fs.setQuota(new Path(e, "t"), 100, HdfsConstants.QUOTA_DONT_SET);
    fs.mkdirs(new Path(e, "u"));
    fs.allowSnapshot(e);
    fs.createSnapshot(e, "s1");
    fs.setTimes(new Path(e, "r"), 1000L, -1);
    fs.setTimes(new Path(e, "t"), 2000L, -1);
    fs.setPermission(new Path(e, "u"), new FsPermission((short) 0700)); // listed, as a witness
    String before = fs.getSnapshotDiffReport(e, "s1", "").toString();
    assertTrue(
        before, before.contains("./u") && !before.contains("./r") && !before.contains("./t"));
    List<String> seen = new ArrayList<>();
    fs = restart(seen, "copies");
    assertEquals(before, fs.getSnapshotDiffReport(e, "s1", "").toString());
  }

  /**
   * A region whose diff records hold their own diffs with their created and deleted lists (the form
   * the preview wrote before RECORD_DIFF_ENTRY and RECORD_DIFF, region-format.md §13) restarts with
   * the same answers, and the next change under such a directory writes it in the new form, which
   * restarts the same too. The old form is made from the new one: each inode's whole diff list
   * encoded from memory as that form held it, then, offline, written into its diff record, its diff
   * and entry records removed.
   */
  @Test(timeout = 600_000)
  public void aDiffRecordHoldingItsOwnListsIsReadAndWrittenAnew() throws Exception {
    DistributedFileSystem fs = nvmCluster("legacy", 1);
    Path d = new Path("/d");
    fs.mkdirs(new Path(d, "sub"));
    write(fs, new Path(d, "f1"), 1);
    write(fs, new Path(d, "f2"), 2);
    write(fs, new Path(d, "sub/f3"), 3);
    fs.allowSnapshot(d);
    fs.createSnapshot(d, "s1");
    write(fs, new Path(d, "new"), 4);
    fs.delete(new Path(d, "f1"), false);
    fs.rename(new Path(d, "f2"), new Path(d, "g"));
    fs.rename(new Path(d, "sub/f3"), new Path(d, "f3"));
    fs.createSnapshot(d, "s2");
    fs.mkdirs(new Path(d, "m"));
    List<String> before = state(fs, "before");
    java.util.Map<Long, byte[]> whole = wholeDiffLists();
    cluster.shutdownNameNode(0);
    assertTrue(oldForm(MigrationTestSupport.region(cluster), whole) >= 2);
    cluster.restartNameNode(0, true);
    fs = cluster.getFileSystem();
    assertEquals(before, state(fs, "before"));
    fs.delete(new Path(d, "new"), false); // /d's record written again, in the new form
    fs.delete(new Path(d, "sub"), true);
    List<String> after = state(fs, "after");
    cluster.restartNameNode(0, true);
    fs = cluster.getFileSystem();
    assertEquals(after, state(fs, "after"));
    cluster.shutdownNameNode(0);
    assertTrue(oldForm(MigrationTestSupport.region(cluster), null) >= 1); // /d: new records
  }

  /** Every inode's diff list as one record with its lists (the old form), from memory. */
  private java.util.Map<Long, byte[]> wholeDiffLists() throws Exception {
    java.util.Map<Long, byte[]> out = new java.util.HashMap<>();
    org.apache.hadoop.hdfs.server.namenode.FSNamesystem fsn = cluster.getNamesystem(0);
    fsn.readLock();
    try {
      long last = fsn.getFSDirectory().getLastInodeId();
      for (long id = org.apache.hadoop.hdfs.server.namenode.INodeId.ROOT_INODE_ID;
          id <= last;
          id++) {
        org.apache.hadoop.hdfs.server.namenode.INode n = fsn.getFSDirectory().getInode(id);
        byte[] p =
            n == null
                ? null
                : org.apache.hadoop.hdfs.server.namenode.snapshot.NvmSnapshotEncoder.diffs(n);
        if (p != null) {
          out.put(id, p);
        }
      }
    } finally {
      fsn.readUnlock();
    }
    return out;
  }

  /**
   * The inodes whose diffs are in diff or entry records; with {@code whole} (inode id &rarr; its
   * list in the old form), each such inode's diff record becomes that, its diff and entry records
   * removed (the region file, its NameNode down).
   */
  private static int oldForm(java.io.File file, java.util.Map<Long, byte[]> whole)
      throws Exception {
    java.util.Map<Long, List<org.apache.hadoop.hdfs.server.namenode.nvm.RecordView>> entries =
        new java.util.TreeMap<>();
    java.util.Map<Long, org.apache.hadoop.hdfs.server.namenode.nvm.RecordView> heads =
        new java.util.HashMap<>();
    try (org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore store =
        org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore.open(
            org.apache.hadoop.hdfs.server.namenode.nvm.Region.open(
                file, org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode.EMULATED))) {
      for (long page : org.apache.hadoop.hdfs.server.namenode.nvm.RecordView.scan(store.region())) {
        org.apache.hadoop.hdfs.server.namenode.nvm.RecordView v = store.record(page);
        if (v.type() == RegionLayout.RECORD_DIFF_ENTRY || v.type() == RegionLayout.RECORD_DIFF) {
          entries.computeIfAbsent(v.key(), k -> new ArrayList<>()).add(v);
        } else if (v.type() == RegionLayout.RECORD_INODE_DIFFS) {
          heads.put(v.key(), v);
        }
      }
      if (whole == null) {
        return entries.size();
      }
      try (org.apache.hadoop.hdfs.server.namenode.nvm.Txn t = store.begin()) {
        for (java.util.Map.Entry<Long, List<org.apache.hadoop.hdfs.server.namenode.nvm.RecordView>>
            e : entries.entrySet()) {
          for (org.apache.hadoop.hdfs.server.namenode.nvm.RecordView v : e.getValue()) {
            t.removeRecord(v.page());
          }
          org.apache.hadoop.hdfs.server.namenode.nvm.RecordView head = heads.get(e.getKey());
          t.removeRecord(head.page());
          t.createRecord(RegionLayout.RECORD_INODE_DIFFS, e.getKey(), 0, whole.get(e.getKey()));
        }
        t.commit();
      }
    }
    return entries.size();
  }

  /**
   * A truncate under a snapshot copies the last block; the old one is still the file's block (its
   * block collection, as 2.7.3's), held by the snapshot's diff. After a rename it is named by the
   * file's new path, as the stock NameNode names it (listCorruptFileBlocks and fsck report blocks
   * by that path): the NVM NameNode's block collection of the old block stayed at the old path (the
   * differential fuzzer, seed 20261129, its listCorruptFileBlocks divergence). Stock and NVM answer
   * the same, before and after a restart.
   */
  @Test(timeout = 600_000)
  public void aBlockOnlyASnapshotHoldsFollowsItsRenamedFile() throws Exception {
    List<String> want = renamedTruncatedFile(false);
    cluster.shutdown();
    cluster = null;
    assertEquals(want, renamedTruncatedFile(true));
    assertEquals("[/e/g, /e/g, /e/g, /e/g]", want.toString());
  }

  /** The paths the old and the new block's collections give, before and after a restart. */
  private List<String> renamedTruncatedFile(boolean nvm) throws Exception {
    cluster =
        MigrationTestSupport.cluster(
            getClass(),
            nvm ? "tn" : "ts",
            nvm,
            1,
            NvmConfigKeys.NVM_SNAPSHOTS_PREVIEW_KEY + "=true");
    DistributedFileSystem fs = cluster.getFileSystem();
    Path d = new Path("/d");
    fs.mkdirs(new Path("/e"));
    write(fs, new Path(d, "f"), 100);
    fs.allowSnapshot(d);
    fs.createSnapshot(d, "s1");
    org.apache.hadoop.hdfs.protocol.ExtendedBlock old =
        fs.getClient().getLocatedBlocks("/d/f", 0).get(0).getBlock();
    fs.truncate(new Path(d, "f"), 2);
    org.apache.hadoop.hdfs.protocol.ExtendedBlock now =
        fs.getClient().getLocatedBlocks("/d/f", 0).get(0).getBlock();
    assertTrue(old + " " + now, old.getBlockId() != now.getBlockId()); // copied, not in place
    fs.rename(new Path(d, "f"), new Path("/e/g"));
    List<String> out = new ArrayList<>();
    out.add(collectionPath(old));
    out.add(collectionPath(now));
    if (nvm) {
      cluster.restartNameNode(true);
    } else {
      fs.setSafeMode(HdfsConstants.SafeModeAction.SAFEMODE_ENTER);
      fs.saveNamespace();
      fs.setSafeMode(HdfsConstants.SafeModeAction.SAFEMODE_LEAVE);
      cluster.restartNameNode(true);
    }
    cluster.waitActive();
    out.add(collectionPath(old));
    out.add(collectionPath(now));
    return out;
  }

  private String collectionPath(org.apache.hadoop.hdfs.protocol.ExtendedBlock b) {
    org.apache.hadoop.hdfs.server.namenode.FSNamesystem fsn = cluster.getNamesystem();
    fsn.readLock();
    try {
      Object bc = fsn.getBlockManager().getBlockCollection(b.getLocalBlock());
      return bc == null
          ? "none"
          : ((org.apache.hadoop.hdfs.server.namenode.INode) bc).getFullPathName();
    } finally {
      fsn.readUnlock();
    }
  }

  /**
   * Files empty in s1 and written since. z: a truncate keeps s1's blocks up to s1's size (none) in
   * an empty list, so s1 reads no block where the file has one now; the fsimage message cannot hold
   * an empty list (the stock loader reads it as "the file's blocks", and so does a stock NameNode
   * restarted from its fsimage), the region keeps it. y: deleted, so only s1 holds it, and 2.7.3
   * cuts its blocks to none; its page must say so.
   */
  @Test(timeout = 600_000)
  public void aSnapshotOfAnEmptyFileReadsNoBlocksAcrossARestart() throws Exception {
    DistributedFileSystem fs = nvmCluster("z", 1);
    Path e = new Path("/e");
    Path z = new Path(e, "z");
    Path y = new Path(e, "y");
    fs.mkdirs(e);
    fs.create(z, (short) 1).close();
    fs.create(y, (short) 1).close();
    fs.allowSnapshot(e);
    fs.createSnapshot(e, "s1");
    for (Path p : new Path[] {z, y}) {
      try (FSDataOutputStream out = fs.append(p)) {
        out.write(new byte[10]);
      }
    }
    // y deleted: 2.7.3 cuts the blocks of a file only snapshots hold to what they keep (none),
    // and the delete's batch writes the file's page with that
    assertTrue(fs.delete(y, false));
    assertTrue(fs.truncate(z, 0));
    try (FSDataOutputStream out = fs.append(z)) {
      out.write(new byte[10]);
    }
    assertEquals("0 blocks, length 0", blocksIn(fs, "/e/.snapshot/s1/z"));
    assertEquals("0 blocks, length 0", blocksIn(fs, "/e/.snapshot/s1/y"));
    List<String> seen = new ArrayList<>();
    fs = restart(seen, "an empty block list");
    assertEquals("0 blocks, length 0", blocksIn(fs, "/e/.snapshot/s1/z"));
    assertEquals("0 blocks, length 0", blocksIn(fs, "/e/.snapshot/s1/y"));
    assertEquals("1 blocks, length 10", blocksIn(fs, "/e/z"));
  }

  /**
   * Y is renamed out of X, then X into Y, then the directory holding both is deleted: each is held
   * only by its old place now, Y's being X, whose page is under Y's (the rename moved it there).
   * The delete's batch must put X's page under X's old place before Y's under X (found by the
   * process-crash test's snapshot mix: "cannot move inode … under its own subtree", and the
   * NameNode stopped).
   */
  @Test(timeout = 600_000)
  public void renamedDirectoriesHeldOnlyByEachOthersOldPlacesSurviveTheirDelete() throws Exception {
    DistributedFileSystem fs = nvmCluster("y", 0);
    Path s = new Path("/s");
    fs.mkdirs(new Path(s, "a/X/Y/f"));
    fs.mkdirs(new Path(s, "b"));
    fs.allowSnapshot(s);
    fs.createSnapshot(s, "s1");
    assertTrue(fs.rename(new Path(s, "a/X/Y"), new Path(s, "b/Y")));
    assertTrue(fs.rename(new Path(s, "a/X"), new Path(s, "b/Y/X")));
    assertTrue(fs.delete(new Path(s, "b"), true));
    List<String> before = state(fs, "held by old places");
    List<String> seen = new ArrayList<>();
    fs = restart(seen, "held by old places");
    assertEquals(String.join("\n", before), String.join("\n", state(fs, "held by old places")));
    assertTrue(fs.exists(new Path("/s/.snapshot/s1/a/X/Y/f")));
  }

  /**
   * Edits that change the diff records of hundreds of files at once: deleting a snapshot whose
   * files all have diffs, and a recursive delete of a directory of such files under a later
   * snapshot. Each changed record costs the batch about 96 bytes of log, so these batches are
   * several times the log area (8,168 bytes): the NameNode stopped at the first one ("batch too
   * large for the log record") until a redo record could keep its payload in chain pages
   * (region-format.md §4.1). Each is one batch, and the snapshots read the same after restarts.
   */
  @Test(timeout = 600_000)
  public void editsChangingHundredsOfDiffRecordsAreOneBatchEach() throws Exception {
    DistributedFileSystem fs = nvmCluster("h", 0);
    Path m = new Path("/m");
    int n = 300;
    for (int i = 0; i < n; i++) {
      fs.create(new Path(m, (i % 2 == 0 ? "even/" : "odd/") + "f" + i), (short) 1).close();
    }
    fs.allowSnapshot(m);
    fs.createSnapshot(m, "s1");
    for (int i = 0; i < n; i++) {
      Path f = new Path(m, (i % 2 == 0 ? "even/" : "odd/") + "f" + i);
      fs.setPermission(f, new FsPermission((short) 0600));
    }
    fs.createSnapshot(m, "s2");
    for (int i = 0; i < n; i++) {
      Path f = new Path(m, (i % 2 == 0 ? "even/" : "odd/") + "f" + i);
      fs.setPermission(f, new FsPermission((short) 0640));
    }
    long seq = commitSeq();
    fs.deleteSnapshot(m, "s1"); // every file's diff list changes
    assertEquals("one group committed, of one batch", seq + 1, commitSeq());
    assertTrue(fs.delete(new Path(m, "odd"), true)); // 150 files with diffs, held by s2
    List<String> before = state(fs, "hundreds of records");
    List<String> seen = new ArrayList<>();
    fs = restart(seen, "hundreds of records");
    assertEquals(String.join("\n", before), String.join("\n", state(fs, "hundreds of records")));
    assertEquals("rw-r-----", fs.getFileStatus(new Path(m, "even/f0")).getPermission().toString());
    assertEquals(
        "rw-------",
        fs.getFileStatus(new Path(m, ".snapshot/s2/odd/f1")).getPermission().toString());
    fs.deleteSnapshot(m, "s2"); // every remaining record goes
    before = state(fs, "no snapshot left");
    fs = restart(seen, "no snapshot left");
    assertEquals(String.join("\n", before), String.join("\n", state(fs, "no snapshot left")));
    assertEquals(0, fs.getSnapshottableDirListing()[0].getSnapshotNumber());
  }

  /**
   * X, created after snapshot sa, is moved into D, which sa holds at an old place (D was renamed
   * out of /t/old under sa); snapshots s2 and s3 see X in D; D is deleted. Deleting s3 and s2
   * destroys X (only they held it), but 2.7.3 leaves X in D's children (D is not destroyed: sa
   * holds it), and reads X again for sa's content summary and when sa's deletion destroys D. The
   * NVM NameNode freed X's page with the inode map's removal, and every later read of sa's D failed
   * ("inode … has no page in the region"; found by the process-crash test's snapshot mix, whose
   * NameNode then refused to restart on its region). X's page now stays while D lists it.
   */
  @Test(timeout = 600_000)
  public void aDestroyedFileItsDeletedDirectoryStillListsKeepsItsPage() throws Exception {
    DistributedFileSystem fs = nvmCluster("w", 0);
    Path t = new Path("/t");
    fs.mkdirs(new Path("/t/old/D"));
    fs.mkdirs(new Path("/t/new"));
    fs.mkdirs(new Path("/t/c"));
    fs.allowSnapshot(t);
    fs.createSnapshot(t, "sa");
    fs.rename(new Path("/t/old/D"), new Path("/t/new/D"));
    fs.create(new Path("/t/c/X"), (short) 1).close();
    fs.rename(new Path("/t/c/X"), new Path("/t/new/D/X"));
    fs.createSnapshot(t, "s2");
    fs.rename(new Path("/t/new/D"), new Path("/t/new/D2"));
    fs.createSnapshot(t, "s3");
    fs.setTimes(new Path("/t/new/D2/X"), 1000L, -1);
    assertTrue(fs.delete(new Path("/t/new/D2"), true));
    fs.deleteSnapshot(t, "s3");
    fs.deleteSnapshot(t, "s2");
    assertEquals("ok", answer(() -> fs.getContentSummary(new Path("/t/.snapshot/sa"))));
    List<String> before = state(fs, "X destroyed, still listed");
    List<String> seen = new ArrayList<>();
    DistributedFileSystem fs2 = restart(seen, "X destroyed, still listed");
    assertEquals(
        String.join("\n", before), String.join("\n", state(fs2, "X destroyed, still listed")));
    fs2.deleteSnapshot(t, "sa");
    before = state(fs2, "sa deleted");
    fs2 = restart(seen, "sa deleted");
    assertEquals(String.join("\n", before), String.join("\n", state(fs2, "sa deleted")));
  }

  private long commitSeq() {
    return NvmTestAccess.region(cluster.getNameNode(0)).counter(RegionLayout.SB_COMMIT_SEQ);
  }

  private static String blocksIn(DistributedFileSystem fs, String path) throws Exception {
    org.apache.hadoop.hdfs.protocol.LocatedBlocks b =
        fs.getClient().getLocatedBlocks(path, 0, Long.MAX_VALUE);
    return b.locatedBlockCount() + " blocks, length " + b.getFileLength();
  }

  /**
   * The export (docs/migration.md) is the stock fsimage saver over the restored namespace: a stock
   * NameNode started from it serves the same snapshots, diffs and summaries.
   */
  @Test(timeout = 600_000)
  public void anExportCarriesTheSnapshotsToAStockNameNode() throws Exception {
    cluster =
        MigrationTestSupport.cluster(
            getClass(),
            "x",
            true,
            1,
            NvmConfigKeys.NVM_CACHE_INODES_KEY + "=8",
            NvmConfigKeys.NVM_SNAPSHOTS_PREVIEW_KEY + "=true");
    DistributedFileSystem fs = cluster.getFileSystem();
    Path d = new Path("/d");
    fs.mkdirs(new Path(d, "sub"));
    for (int i = 0; i < 6; i++) {
      write(fs, new Path(d, "f" + i), i + 1);
    }
    write(fs, new Path(d, "sub/x"), 5);
    fs.allowSnapshot(d);
    fs.createSnapshot(d, "s1");
    fs.delete(new Path(d, "f1"), false);
    fs.delete(new Path(d, "sub"), true);
    fs.setPermission(new Path(d, "f2"), new FsPermission((short) 0600));
    write(fs, new Path(d, "f1"), 9);
    fs.createSnapshot(d, "s2");
    fs.setReplication(new Path(d, "f3"), (short) 2);
    List<String> nvm = state(fs, "before the export");
    DistributedFileSystem stock = MigrationTestSupport.exportAndStartStock(cluster);
    List<String> exported = state(stock, "before the export");
    assertTrue(String.join("\n", nvm), nvm.contains("diff s1 -> s2 ok"));
    assertEquals(String.join("\n", nvm), String.join("\n", exported));
  }

  @Test(timeout = 600_000)
  public void snapshotsSurviveRestartsAsStockSnapshotsDo() throws Exception {
    List<String> stock = scenario(false);
    cluster.shutdown();
    cluster = null;
    List<String> nvm = scenario(true);
    // both answers side by side for a reader of a failure (diff the two files)
    java.nio.file.Path dir = java.nio.file.Paths.get("target", "snapshot-restart");
    java.nio.file.Files.createDirectories(dir);
    java.nio.file.Files.write(dir.resolve("stock.txt"), stock);
    java.nio.file.Files.write(dir.resolve("nvm.txt"), nvm);
    assertTrue(String.join("\n", stock), stock.contains("diff s3 -> t2 ok"));
    assertEquals(String.join("\n", stock), String.join("\n", nvm));
  }
}
