package org.nvmnn.it.core;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.namenode.NvmTestAccess;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.nvmnn.it.NvmCluster;

/**
 * Eviction under load: a 16-file inode cache while four clients (each its own DFSClient and lease
 * holder, each in its own directory) create, write, rename, delete, change permission / replication
 * / times, append, and leave files open for lease recovery by another client. Every client keeps a
 * reference model of its directory; after the run and again after a NameNode restart the namespace
 * (type, length, permission, replication, modification time) and every file's bytes must equal the
 * model.
 */
public class SlimCacheConcurrencyTest {
  private static final int CLIENTS = 4;
  private static final int OPS = 160;
  private MiniDFSCluster cluster;

  @Before
  public void start() throws Exception {
    Configuration conf = NamespaceOpsTestBase.conf(true);
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, NamespaceOpsTestBase.baseDir(getClass()));
    cluster = NvmCluster.builder(conf, 2).build();
    cluster.waitActive();
  }

  @After
  public void stop() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  /** What a client believes one file is. */
  static final class FileModel {
    byte[] data;
    short perm;
    short repl;
    long mtime = -1; // -1: not set explicitly, not compared

    FileModel(byte[] data, short repl) {
      this.data = data;
      this.perm = (short) 0644;
      this.repl = repl;
    }
  }

  private static byte[] bytes(Random r, int n) {
    byte[] b = new byte[n];
    r.nextBytes(b);
    return b;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] c = new byte[a.length + b.length];
    System.arraycopy(a, 0, c, 0, a.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  /** One client's run; returns its model (path -> file; directories as null). */
  private Map<String, FileModel> client(int k) throws Exception {
    Random r = new Random(1000 + k);
    DistributedFileSystem fs =
        (DistributedFileSystem)
            FileSystem.newInstance(cluster.getURI(), cluster.getConfiguration(0));
    DistributedFileSystem other =
        (DistributedFileSystem)
            FileSystem.newInstance(cluster.getURI(), cluster.getConfiguration(0));
    Map<String, FileModel> model = new TreeMap<String, FileModel>();
    String home = "/c/t" + k;
    fs.mkdirs(new Path(home));
    model.put(home, null);
    int serial = 0;
    try {
      for (int op = 0; op < OPS; op++) {
        List<String> files = new ArrayList<String>();
        List<String> dirs = new ArrayList<String>();
        for (Map.Entry<String, FileModel> e : model.entrySet()) {
          (e.getValue() == null ? dirs : files).add(e.getKey());
        }
        int choice = r.nextInt(files.isEmpty() ? 2 : 11);
        String f = files.isEmpty() ? null : files.get(r.nextInt(files.size()));
        switch (choice) {
          case 0:
            { // create + write + close
              String p = dirs.get(r.nextInt(dirs.size())) + "/f" + serial++;
              byte[] d = bytes(r, r.nextInt(3000));
              short repl = (short) (1 + r.nextInt(2));
              FSDataOutputStream out = fs.create(new Path(p), repl);
              out.write(d);
              out.close();
              model.put(p, new FileModel(d, repl));
              break;
            }
          case 1:
            { // mkdir
              String p = dirs.get(r.nextInt(dirs.size())) + "/d" + serial++;
              assertTrue(fs.mkdirs(new Path(p)));
              model.put(p, null);
              break;
            }
          case 2:
            { // rename a file within the client's tree
              String p = dirs.get(r.nextInt(dirs.size())) + "/r" + serial++;
              assertTrue(fs.rename(new Path(f), new Path(p)));
              model.put(p, model.remove(f));
              break;
            }
          case 3: // delete
            assertTrue(fs.delete(new Path(f), false));
            model.remove(f);
            break;
          case 4:
            {
              short perm = (short) (0600 + r.nextInt(0100));
              fs.setPermission(new Path(f), new FsPermission(perm));
              model.get(f).perm = perm;
              break;
            }
          case 5:
            {
              short repl = (short) (1 + r.nextInt(2));
              assertTrue(fs.setReplication(new Path(f), repl));
              model.get(f).repl = repl;
              break;
            }
          case 6:
            {
              long mtime = 1_000_000_000_000L + r.nextInt(1_000_000);
              fs.setTimes(new Path(f), mtime, -1);
              model.get(f).mtime = mtime;
              break;
            }
          case 7:
            { // append
              byte[] more = bytes(r, 1 + r.nextInt(2000));
              FSDataOutputStream out = fs.append(new Path(f));
              out.write(more);
              out.close();
              FileModel m = model.get(f);
              m.data = concat(m.data, more);
              m.mtime = -1;
              break;
            }
          case 8:
            { // left open by this client, recovered by another
              String p = dirs.get(r.nextInt(dirs.size())) + "/open" + serial++;
              byte[] d = bytes(r, 1 + r.nextInt(3000));
              FSDataOutputStream out = fs.create(new Path(p), (short) 2);
              out.write(d);
              out.hflush();
              recoverLease(other, new Path(p));
              model.put(p, new FileModel(d, (short) 2));
              // the abandoned stream belongs to a lost writer now; its close must not change the
              // file
              try {
                out.close();
              } catch (java.io.IOException expected) {
                // lease was taken over
              }
              break;
            }
          default:
            { // reads: stat and list (they materialize files and evict others)
              FileStatus st = fs.getFileStatus(new Path(f));
              assertEquals(f, model.get(f).data.length, st.getLen());
              fs.listStatus(new Path(f).getParent());
              break;
            }
        }
      }
    } finally {
      fs.close();
      other.close();
    }
    return model;
  }

  /**
   * Each recoverLease call starts the block recovery again with a new recovery id, so calling it in
   * a tight loop can keep the DataNode's recovery from ever committing: call it, then wait for the
   * file to close (isFileClosed starts nothing), and call it again only after a long pause.
   */
  private static void recoverLease(DistributedFileSystem fs, Path p) throws Exception {
    long deadline = System.currentTimeMillis() + 180_000;
    while (!fs.recoverLease(p)) {
      long retry = System.currentTimeMillis() + 20_000;
      while (!fs.isFileClosed(p) && System.currentTimeMillis() < retry) {
        assertTrue("lease recovery of " + p, System.currentTimeMillis() < deadline);
        Thread.sleep(250);
      }
      if (fs.isFileClosed(p)) {
        return;
      }
    }
  }

  private void check(Map<String, FileModel> model, String when) throws Exception {
    DistributedFileSystem fs = cluster.getFileSystem();
    Map<String, FileStatus> actual = new TreeMap<String, FileStatus>();
    List<Path> todo = new ArrayList<Path>();
    todo.add(new Path("/c"));
    while (!todo.isEmpty()) {
      for (FileStatus s : fs.listStatus(todo.remove(todo.size() - 1))) {
        actual.put(s.getPath().toUri().getPath(), s);
        if (s.isDirectory()) {
          todo.add(s.getPath());
        }
      }
    }
    assertEquals(when + ": paths", model.keySet(), actual.keySet());
    for (Map.Entry<String, FileModel> e : model.entrySet()) {
      FileStatus s = actual.get(e.getKey());
      FileModel m = e.getValue();
      if (m == null) {
        assertTrue(when + ": " + e.getKey() + " is a directory", s.isDirectory());
        continue;
      }
      assertTrue(when + ": " + e.getKey() + " is a file", s.isFile());
      assertEquals(when + ": length of " + e.getKey(), m.data.length, s.getLen());
      assertEquals(when + ": permission of " + e.getKey(), m.perm, s.getPermission().toShort());
      assertEquals(when + ": replication of " + e.getKey(), m.repl, s.getReplication());
      if (m.mtime != -1) {
        assertEquals(when + ": mtime of " + e.getKey(), m.mtime, s.getModificationTime());
      }
      assertArrayEquals(
          when + ": bytes of " + e.getKey(),
          m.data,
          DFSTestUtil.readFileBuffer(fs, new Path(e.getKey())));
    }
  }

  @Test
  public void tinyCacheUnderConcurrentClientsLosesNothingAcrossARestart() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
    List<Future<Map<String, FileModel>>> runs = new ArrayList<Future<Map<String, FileModel>>>();
    for (int k = 0; k < CLIENTS; k++) {
      final int client = k;
      runs.add(pool.submit(() -> client(client)));
    }
    Map<String, FileModel> model = new TreeMap<String, FileModel>();
    for (Future<Map<String, FileModel>> f : runs) {
      model.putAll(f.get());
    }
    pool.shutdown();
    // the reads' stats and listings fill the cache (a file its writer closes does not enter it)
    assertTrue(
        "the cache evicted: " + NvmTestAccess.cacheEvictions(cluster.getNameNode()),
        NvmTestAccess.cacheEvictions(cluster.getNameNode()) > 50);
    check(model, "before restart");
    cluster.restartNameNode(true);
    cluster.waitActive();
    check(model, "after restart");
  }
}
