package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.snapshot.Snapshot;

/**
 * The restart rebuild's child indexes: every directory's children are collected into a {@link
 * SiblingBuffer} during the pass over the pages (directories by their quota ordinal), then sorted
 * and installed as each directory's {@link ChildIndex}, several directories at a time: they share
 * nothing, and the sorts are most of the rebuild's CPU time on a large directory.
 */
final class ChildrenRebuild {
  static final int AUTO_PARALLEL_CHILDREN = 100000;

  private NvmINodeDirectory[] dirs = new NvmINodeDirectory[64];
  private SiblingBuffer[] buffers = new SiblingBuffer[64];
  private int count;

  /** Registers a rebuilt directory under its ordinal (0, 1, 2, ... in the order they are added). */
  void add(int ordinal, INodeDirectory d) throws IOException {
    if (ordinal != count) {
      throw new IllegalStateException(
          "directory " + d.getId() + " has ordinal " + ordinal + ", expected " + count);
    }
    if (count == dirs.length) {
      dirs = Arrays.copyOf(dirs, 2 * count);
      buffers = Arrays.copyOf(buffers, 2 * count);
    }
    if (!(d instanceof NvmINodeDirectory)) {
      throw new IOException(
          "directory "
              + d.getId()
              + " is a "
              + d.getClass().getSimpleName()
              + ", not an NVM directory");
    }
    dirs[count++] = (NvmINodeDirectory) d;
  }

  /** The buffer collecting the children of the directory with this ordinal. */
  SiblingBuffer of(int ordinal) {
    SiblingBuffer b = buffers[ordinal];
    if (b == null) {
      b = buffers[ordinal] = new SiblingBuffer();
    }
    return b;
  }

  /**
   * Sorts and installs every directory's index, on {@code threads} threads, largest directories
   * first; 0: one per available processor once there are {@value #AUTO_PARALLEL_CHILDREN} children
   * or more (below, a thread costs more than it saves). The buffers are dropped as they are done.
   */
  void index(Region region, FSDirectory fsd, int threads) throws IOException {
    List<Integer> todo = new ArrayList<Integer>();
    long total = 0;
    for (int o = 0; o < count; o++) {
      if (buffers[o] != null) {
        todo.add(o);
        total += buffers[o].size();
      }
    }
    int n =
        threads > 0
            ? threads
            : total < AUTO_PARALLEL_CHILDREN ? 1 : Runtime.getRuntime().availableProcessors();
    if (n <= 1 || todo.size() <= 1) {
      for (int o : todo) {
        indexOne(region, fsd, o);
      }
      return;
    }
    Collections.sort(
        todo,
        new Comparator<Integer>() {
          @Override
          public int compare(Integer a, Integer b) {
            return Integer.compare(buffers[b].size(), buffers[a].size());
          }
        });
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.min(n, todo.size()),
            new ThreadFactory() {
              private int next;

              @Override
              public synchronized Thread newThread(Runnable r) {
                Thread t = new Thread(r, "NVM rebuild index " + next++);
                t.setDaemon(true);
                return t;
              }
            });
    try {
      List<Future<Void>> done = new ArrayList<Future<Void>>();
      for (final int o : todo) {
        done.add(
            pool.submit(
                () -> {
                  indexOne(region, fsd, o);
                  return null;
                }));
      }
      for (Future<Void> f : done) {
        f.get(); // the executor orders the workers' writes before this thread goes on
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(
          "NVM region " + region.file() + ": interrupted while indexing directories", e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof IOException) {
        throw (IOException) c;
      }
      if (c instanceof RuntimeException) {
        throw (RuntimeException) c;
      }
      throw new IOException(c);
    } finally {
      pool.shutdownNow();
    }
  }

  private void indexOne(Region region, FSDirectory fsd, int ordinal) throws IOException {
    NvmINodeDirectory parent = dirs[ordinal];
    SiblingBuffer siblings = buffers[ordinal];
    // As the stock image loader: "/.reserved" may exist only in a namespace written while the
    // reserved-name check was off (older releases); such a namespace is not loaded.
    if (parent == fsd.getRoot()
        && FSDirectory.CHECK_RESERVED_FILE_NAMES
        && siblings.contains(FSDirectory.DOT_RESERVED)) {
      throw new HadoopIllegalArgumentException(
          "NVM region "
              + region.file()
              + ": the root has a child named \""
              + DFSUtil.bytes2String(FSDirectory.DOT_RESERVED)
              + "\", which is reserved; rename it with the "
              + "reserved-name check off before starting this release");
    }
    if (parent.getChildrenNum(Snapshot.CURRENT_STATE_ID) != 0) {
      throw new IllegalStateException(
          "directory " + parent.getId() + " already has children before its index is built");
    }
    try {
      parent.setChildIndex(siblings.toIndex());
    } catch (IllegalArgumentException e) {
      throw new IOException(
          "NVM region "
              + region.file()
              + ": children of inode "
              + parent.getId()
              + ": "
              + e.getMessage(),
          e);
    }
    buffers[ordinal] = null;
  }
}
