package org.nvmnn.it.core;

import static org.junit.Assert.assertEquals;
import static org.nvmnn.it.core.SnapshotRestartTest.answer;
import static org.nvmnn.it.core.SnapshotRestartTest.state;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.junit.After;
import org.junit.Test;

/**
 * The import of a stock namespace with snapshots (docs/migration.md): a stock NameNode makes
 * snapshots of two trees and changes them in every way that leaves snapshot state behind (deleted
 * files and directories kept by a snapshot, attribute copies, appends, renames within a tree, out
 * of one into another and back, a directory renamed away and then deleted, a renamed snapshot, a
 * deleted one); its namespace is imported, and the NVM NameNode must answer every snapshot's
 * listing, content summary and diff report as the stock one did, after a restart from its region
 * too, then the export brings it back to a stock NameNode that answers the same.
 */
public class SnapshotMigrationTest {
  private MiniDFSCluster cluster;

  @After
  public void tearDown() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  private static void write(DistributedFileSystem fs, Path p, int bytes) throws Exception {
    try (FSDataOutputStream out = fs.create(p, (short) 1)) {
      out.write(new byte[bytes]);
    }
  }

  @Test(timeout = 600_000)
  public void aStockNamespaceWithSnapshotsIsImportedAndExported() throws Exception {
    cluster =
        MigrationTestSupport.cluster(
            getClass(),
            "snapshots",
            false,
            1,
            NvmConfigKeys.NVM_SNAPSHOTS_PREVIEW_KEY + "=true",
            NvmConfigKeys.NVM_CACHE_INODES_KEY + "=8");
    DistributedFileSystem fs = cluster.getFileSystem();
    List<String> log = new ArrayList<>();
    Path d = new Path("/d");
    Path e = new Path("/e");
    fs.mkdirs(new Path(d, "sub/deep"));
    fs.mkdirs(new Path(d, "keep"));
    fs.mkdirs(e);
    for (int i = 0; i < 12; i++) {
      write(fs, new Path(d, "f" + i), i + 1);
    }
    write(fs, new Path(d, "sub/deep/x"), 7);
    write(fs, new Path(d, "sub/y"), 3);
    fs.allowSnapshot(d);
    fs.allowSnapshot(e);
    log.add(answer(() -> fs.createSnapshot(d, "s1")));
    log.add(answer(() -> fs.createSnapshot(e, "e1")));
    log.add(answer(() -> fs.delete(new Path(d, "f1"), false)));
    log.add(answer(() -> fs.delete(new Path(d, "sub"), true))); // a kept directory and its files
    log.add(answer(() -> fs.setPermission(new Path(d, "f2"), new FsPermission((short) 0600))));
    log.add(answer(() -> fs.setReplication(new Path(d, "f3"), (short) 2)));
    log.add(answer(() -> fs.setOwner(new Path(d, "keep"), "alice", "staff")));
    log.add(answer(() -> fs.append(new Path(d, "f4")).close()));
    log.add(answer(() -> write(fs, new Path(d, "new"), 5)));
    log.add(answer(() -> fs.rename(new Path(d, "f5"), new Path(d, "f5r")))); // within the tree
    log.add(answer(() -> fs.rename(new Path(d, "f6"), new Path(e, "f6")))); // out, into e
    log.add(answer(() -> fs.mkdirs(new Path(d, "moved/in"))));
    log.add(answer(() -> write(fs, new Path(d, "moved/in/z"), 2)));
    log.add(answer(() -> fs.createSnapshot(d, "s2")));
    log.add(answer(() -> fs.rename(new Path(d, "moved"), new Path(e, "moved"))));
    log.add(answer(() -> fs.delete(new Path(e, "moved"), true))); // only s2's old place keeps it
    log.add(answer(() -> fs.rename(new Path(e, "f6"), new Path(d, "f6back"))));
    log.add(answer(() -> fs.setTimes(new Path(d, "f7"), 12345L, 67890L)));
    log.add(
        answer(() -> fs.rename(new Path(d, "f8"), new Path(d, "f9"), Options.Rename.OVERWRITE)));
    log.add(answer(() -> fs.renameSnapshot(d, "s2", "t2")));
    log.add(answer(() -> fs.createSnapshot(d, "s3")));
    log.add(answer(() -> fs.delete(new Path(d, "f10"), false)));
    log.add(answer(() -> fs.createSnapshot(e, "e2")));
    log.add(answer(() -> fs.deleteSnapshot(e, "e1")));
    List<String> onStock = state(fs, "stock");
    onStock.addAll(log);

    DistributedFileSystem nvm = MigrationTestSupport.importAndStartNvm(cluster);
    List<String> imported = state(nvm, "stock");
    imported.addAll(log);
    assertEquals("after the import", String.join("\n", onStock), String.join("\n", imported));
    cluster.restartNameNode(0, true);
    List<String> restarted = state(cluster.getFileSystem(), "stock");
    restarted.addAll(log);
    assertEquals(
        "after a restart from the region",
        String.join("\n", onStock),
        String.join("\n", restarted));

    DistributedFileSystem back = MigrationTestSupport.exportAndStartStock(cluster);
    List<String> exported = state(back, "stock");
    exported.addAll(log);
    assertEquals("after the export", String.join("\n", onStock), String.join("\n", exported));
  }
}
