package org.apache.hadoop.hdfs.server.namenode;

import org.apache.hadoop.fs.permission.PermissionStatus;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeView;

/**
 * The {@link PermissionStatus} a materialized file is built with, shared by files whose pages have
 * the same permission word (owner string id, group string id, mode): most files of a namespace
 * share a few, and a miss then skips the two string lookups and two objects. 2.7.3's INode
 * constructor only reads the status (it packs it into a long), so one object can serve many files.
 *
 * <p>Why it is safe: a string id means the same string for as long as a page references it, and a
 * page is written only by a write operation, at whose end the namesystem calls {@link #invalidate}
 * (under the write lock, before a reader can read that page). A status remembered by a reader is
 * therefore right for every page a reader sees until the next write operation ends. Only readers
 * use it (the caller says so): a write operation may change strings and pages in its own course.
 * Entries are immutable and reached by racy reads of the slots (final fields publish them).
 */
final class PermissionMemo {
  private static final int SLOTS = 64;

  private static final class Entry {
    final long word;
    final long generation;
    final PermissionStatus perm;

    Entry(long word, long generation, PermissionStatus perm) {
      this.word = word;
      this.generation = generation;
      this.perm = perm;
    }
  }

  private final Entry[] slots = new Entry[SLOTS];

  /** Changed only under the namesystem write lock; readers are ordered after it by that lock. */
  private long generation;

  /** The status of {@code v}'s page: remembered when {@code reader}, else read afresh. */
  PermissionStatus of(InodeStore store, InodeView v, boolean reader) {
    if (!reader) {
      return InodeMaterializer.perm(store, v);
    }
    long word = v.permWord();
    int i = (int) ((word * 0x9E3779B97F4A7C15L) >>> 58); // 6 bits: SLOTS
    long g = generation;
    Entry e = slots[i];
    if (e != null && e.word == word && e.generation == g) {
      return e.perm;
    }
    PermissionStatus p = InodeMaterializer.perm(store, v);
    slots[i] = new Entry(word, g, p);
    return p;
  }

  /** A write operation ended: what was remembered before it may be stale. */
  void invalidate() {
    generation++;
  }
}
