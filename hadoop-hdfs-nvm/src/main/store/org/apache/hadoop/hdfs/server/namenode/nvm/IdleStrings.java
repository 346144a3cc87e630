package org.apache.hadoop.hdfs.server.namenode.nvm;

/**
 * The ids of the strings without references ({@link StringTable}), oldest first: an ordered set of
 * positive longs as a doubly linked list in two primitive maps, so that a string going idle at a
 * close and referenced again at the next create boxes and allocates nothing. Adding an id already
 * in the set keeps its place (as a {@code LinkedHashSet} does). Not thread-safe.
 */
final class IdleStrings {
  /** id -&gt; the id before it (0 for the oldest); every member is a key. */
  private final LongLongMap prev = new LongLongMap();

  /** id -&gt; the id after it (0 for the newest). */
  private final LongLongMap next = new LongLongMap();

  private long oldest;
  private long newest;

  int size() {
    return prev.size();
  }

  boolean contains(long id) {
    return prev.containsKey(id);
  }

  /** Appends {@code id} (&gt; 0) as the newest, unless it is in the set. */
  void add(long id) {
    if (id <= 0) {
      throw new IllegalArgumentException("string id " + id);
    }
    if (contains(id)) {
      return;
    }
    prev.put(id, newest);
    next.put(id, 0);
    if (newest != 0) {
      next.put(newest, id);
    } else {
      oldest = id;
    }
    newest = id;
  }

  /** Removes {@code id} if it is in the set. */
  void remove(long id) {
    long p = prev.remove(id);
    if (p == LongLongMap.MISSING) {
      return;
    }
    long n = next.remove(id);
    if (p != 0) {
      next.put(p, n);
    } else {
      oldest = n;
    }
    if (n != 0) {
      prev.put(n, p);
    } else {
      newest = p;
    }
  }

  /** The oldest id, 0 if the set is empty. */
  long oldest() {
    return oldest;
  }

  /** The id after {@code id} (a member), 0 after the newest. */
  long after(long id) {
    long n = next.get(id);
    if (n == LongLongMap.MISSING) {
      throw new IllegalArgumentException("string id " + id + " is not idle");
    }
    return n;
  }
}
