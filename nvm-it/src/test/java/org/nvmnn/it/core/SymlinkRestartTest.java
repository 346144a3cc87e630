package org.nvmnn.it.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.io.IOUtils;
import org.junit.After;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Symlinks (issue 25) persist and come back after restarts as in the stock NameNode: links to a
 * file and to a directory, a relative and a dangling one, a target long enough for a chain, a link
 * made with its parents, renamed and deleted links, a namespace quota that counts them; files are
 * read through the links with FileContext, which resolves them. The same calls against the stock
 * NameNode give the reference.
 */
public class SymlinkRestartTest {
  private MiniDFSCluster cluster;

  @BeforeClass
  public static void enableSymlinks() {
    FileSystem.enableSymlinks(); // 2.7.3 refuses createSymlink unless the JVM enabled them
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

  private static String read(FileContext fc, Path p) throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (FSDataInputStream in = fc.open(p)) {
      IOUtils.copyBytes(in, b, 4096);
    }
    return b.toString("UTF-8");
  }

  private static String longTarget() {
    StringBuilder b = new StringBuilder("/s");
    while (b.length() < 700) {
      b.append("/a-fairly-long-directory-name");
    }
    return b.toString(); // 3 chain pages past the inline part
  }

  private void changes(DistributedFileSystem fs, FileContext fc) throws Exception {
    Path s = new Path("/s");
    fs.mkdirs(new Path(s, "dir"));
    try (FSDataOutputStream out = fs.create(new Path(s, "target"), (short) 1)) {
      out.write("through the link".getBytes("UTF-8"));
    }
    fs.setQuota(s, 100, Long.MAX_VALUE);
    fc.createSymlink(new Path("/s/target"), new Path("/s/link"), false);
    fc.createSymlink(new Path("/s/dir"), new Path("/s/dirlink"), false);
    fc.createSymlink(new Path("target"), new Path("/s/relative"), false);
    fc.createSymlink(new Path("/nowhere"), new Path("/s/dangling"), false);
    fc.createSymlink(new Path(longTarget()), new Path("/s/long"), false);
    fc.createSymlink(new Path("/s/target"), new Path("/s/p/q/made-with-parents"), true);
    fc.createSymlink(new Path("/s/target"), new Path("/s/to-rename"), false);
    fc.rename(new Path("/s/to-rename"), new Path("/s/dir/renamed"), Options.Rename.NONE);
    fc.createSymlink(new Path("/s/target"), new Path("/s/to-delete"), false);
    fc.delete(new Path("/s/to-delete"), false);
    fs.mkdirs(new Path("/s/dir/sub"), new FsPermission((short) 0700));
  }

  /** What is served; with {@code times} the links' mtimes too (they differ between runs). */
  private List<String> state(DistributedFileSystem fs, FileContext fc, boolean times)
      throws Exception {
    List<String> out = new ArrayList<>();
    for (String l :
        new String[] {
          "/s/link",
          "/s/dirlink",
          "/s/relative",
          "/s/dangling",
          "/s/long",
          "/s/p/q/made-with-parents",
          "/s/dir/renamed"
        }) {
      FileStatus st = fc.getFileLinkStatus(new Path(l));
      out.add(
          l
              + " -> "
              + st.getSymlink().toUri().getPath()
              + " "
              + st.getPermission()
              + " "
              + st.getOwner()
              + (times ? " mtime=" + st.getModificationTime() : ""));
    }
    out.add("read " + read(fc, new Path("/s/link")));
    out.add("read relative " + read(fc, new Path("/s/relative")));
    out.add("read renamed " + read(fc, new Path("/s/dir/renamed")));
    out.add("through dirlink " + fc.getFileStatus(new Path("/s/dirlink/sub")).isDirectory());
    List<String> names = new ArrayList<>();
    for (FileStatus st : fs.listStatus(new Path("/s"))) {
      names.add(st.getPath().getName() + (st.isSymlink() ? "@" : st.isDirectory() ? "/" : ""));
    }
    out.add("listing " + names);
    ContentSummary cs = fs.getContentSummary(new Path("/s"));
    out.add("summary " + cs.getFileCount() + " " + cs.getDirectoryCount());
    out.add("quota " + cs.getQuota());
    out.add("deleted gone " + !fs.exists(new Path("/s/to-delete")));
    return out;
  }

  private List<String> scenario(boolean nvm) throws Exception {
    cluster =
        MigrationTestSupport.cluster(
            getClass(), nvm ? "n" : "s", nvm, 1, NvmConfigKeys.NVM_CACHE_INODES_KEY + "=8");
    DistributedFileSystem fs = cluster.getFileSystem();
    changes(fs, fc());
    List<String> before = state(fs, fc(), true);
    cluster.restartNameNode(0);
    cluster.waitActive();
    fs = cluster.getFileSystem();
    assertEquals("after the restart", before, state(fs, fc(), true));
    List<String> seen = new ArrayList<>(state(fs, fc(), false));
    fc().createSymlink(new Path("/s/target"), new Path("/s/after"), false);
    fc().delete(new Path("/s/long"), false);
    cluster.restartNameNode(0);
    cluster.waitActive();
    fs = cluster.getFileSystem();
    seen.add(
        "after " + fc().getFileLinkStatus(new Path("/s/after")).getSymlink().toUri().getPath());
    seen.add("long gone " + !fs.exists(new Path("/s/long")));
    seen.add("summary " + fs.getContentSummary(new Path("/s")).getFileCount());
    return seen;
  }

  @Test(timeout = 300_000)
  public void symlinksSurviveRestartsAsInTheStockNameNode() throws Exception {
    List<String> stock = scenario(false);
    cluster.shutdown();
    cluster = null;
    List<String> nvm = scenario(true);
    assertTrue(stock.toString(), stock.get(0).startsWith("/s/link -> /s/target"));
    assertEquals(stock, nvm);
  }
}
