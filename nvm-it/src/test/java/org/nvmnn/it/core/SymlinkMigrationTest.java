package org.nvmnn.it.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.After;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Symlinks (issue 25) are carried by the migration: a stock namespace with links to a file and a
 * directory, a relative, a dangling and a long (chained) target imports into a region that serves
 * them as the stock NameNode did; a link made in NVM mode and the others export back to a stock
 * namespace.
 */
public class SymlinkMigrationTest {
  private MiniDFSCluster cluster;

  @BeforeClass
  public static void enableSymlinks() {
    FileSystem.enableSymlinks();
  }

  @After
  public void tearDown() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  private FileContext fc() throws Exception {
    return FileContext.getFileContext(cluster.getURI(0), cluster.getConfiguration(0));
  }

  private static String longTarget() {
    StringBuilder b = new StringBuilder("/l");
    while (b.length() < 500) {
      b.append("/a-long-component");
    }
    return b.toString();
  }

  /** Every link under /l: its target, owner and permission; the listing of /l. */
  private List<String> state(DistributedFileSystem fs) throws Exception {
    List<String> out = new ArrayList<>();
    for (FileStatus st : fs.listStatus(new Path("/l"))) {
      String line = st.getPath().getName() + (st.isSymlink() ? "@" : st.isDirectory() ? "/" : "");
      if (st.isSymlink()) {
        FileStatus ls = fc().getFileLinkStatus(st.getPath());
        line +=
            " -> "
                + ls.getSymlink().toUri().getPath()
                + " "
                + ls.getOwner()
                + " "
                + ls.getPermission()
                + " "
                + ls.getModificationTime();
      }
      out.add(line);
    }
    out.add("through link " + fc().getFileStatus(new Path("/l/link")).getLen());
    return out;
  }

  @Test(timeout = 300_000)
  public void symlinksSurviveImportAndExport() throws Exception {
    cluster = MigrationTestSupport.cluster(getClass(), "links", false, 0);
    DistributedFileSystem fs = cluster.getFileSystem();
    fs.mkdirs(new Path("/l/dir"));
    fs.create(new Path("/l/file"), (short) 1).close(); // no DataNode: an empty file
    fc().createSymlink(new Path("/l/file"), new Path("/l/link"), false);
    fc().createSymlink(new Path("/l/dir"), new Path("/l/dirlink"), false);
    fc().createSymlink(new Path("file"), new Path("/l/relative"), false);
    fc().createSymlink(new Path("/nowhere"), new Path("/l/dangling"), false);
    fc().createSymlink(new Path(longTarget()), new Path("/l/long"), false);
    List<String> onStock = state(fs);
    assertTrue(
        onStock.toString(), onStock.stream().anyMatch(l -> l.startsWith("link@ -> /l/file ")));

    fs = MigrationTestSupport.importAndStartNvm(cluster);
    assertEquals("after the import", onStock, state(fs));
    fc().createSymlink(new Path("/l/dir"), new Path("/l/made-in-nvm"), false);
    List<String> onNvm = state(fs);

    fs = MigrationTestSupport.exportAndStartStock(cluster);
    assertEquals("after the export", onNvm, state(fs));
  }
}
