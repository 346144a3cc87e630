package org.nvmnn.it.core;

import static org.junit.Assert.assertEquals;
import static org.nvmnn.it.core.MigrationTestSupport.cluster;

import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.fs.CacheFlag;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;
import org.junit.After;
import org.junit.Test;

/**
 * Cache pools and directives cross a migration both ways: a stock namespace's pools and directives
 * (one directive removed, so the next id is past the live ones) are imported into a region (the
 * import no longer refuses them), are served by the NVM NameNode with the next id kept, and,
 * exported back, by the stock NameNode again, with what the NVM NameNode added.
 */
public class CacheMigrationTest {
  private MiniDFSCluster cluster;

  @After
  public void tearDown() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  private static long add(DistributedFileSystem fs, String path, String pool) throws Exception {
    return fs.addCacheDirective(
        new CacheDirectiveInfo.Builder().setPath(new Path(path)).setPool(pool).build(),
        EnumSet.of(CacheFlag.FORCE));
  }

  @Test(timeout = 180_000)
  public void poolsAndDirectivesSurviveImportAndExport() throws Exception {
    cluster = cluster(getClass(), "cache", false, 0);
    DistributedFileSystem fs = cluster.getFileSystem();
    fs.addCachePool(
        new CachePoolInfo("reports")
            .setOwnerName("alice")
            .setGroupName("bi")
            .setMode(new FsPermission((short) 0755))
            .setLimit(1L << 32));
    fs.addCachePool(new CachePoolInfo("scratch"));
    add(fs, "/reports/daily", "reports");
    long removed = add(fs, "/scratch/tmp", "scratch");
    fs.removeCacheDirective(removed);
    List<String> onStock = CacheState.lines(fs, false, true);
    fs = MigrationTestSupport.importAndStartNvm(cluster);
    assertEquals("after the import", onStock, CacheState.lines(fs, false, true));
    long added = add(fs, "/reports/weekly", "reports");
    assertEquals("the next directive id crossed the import", removed + 1, added);
    List<String> onNvm = CacheState.lines(fs, false, true);

    fs = MigrationTestSupport.exportAndStartStock(cluster);
    assertEquals("after the export", onNvm, CacheState.lines(fs, false, true));
    assertEquals(added + 1, add(fs, "/scratch/again", "scratch"));
  }
}
