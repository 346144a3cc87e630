package org.apache.hadoop.hdfs.server.namenode;

import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.hadoop.util.GSet;

/**
 * The set behind FSDirectory's INodeMap in NVM mode: directories are kept in the stock set (they
 * are resident), files are answered by the {@link SlimNamespace} — from the inode cache or
 * materialized from their pages — so the map holds no object per file. Iteration (the fsimage
 * saver's) yields every directory, then every file, materialized one at a time.
 */
final class SlimInodeMap implements GSet<INode, INodeWithAdditionalFields> {
  private final SlimNamespace slim;
  private final GSet<INode, INodeWithAdditionalFields> dirs;

  SlimInodeMap(SlimNamespace slim, GSet<INode, INodeWithAdditionalFields> dirs) {
    this.slim = slim;
    this.dirs = dirs;
  }

  /** Every persisted inode (the root included). */
  @Override
  public int size() {
    return slim.pages().size();
  }

  @Override
  public boolean contains(INode key) {
    return get(key) != null;
  }

  @Override
  public INodeWithAdditionalFields get(INode key) {
    return (INodeWithAdditionalFields) slim.byId(key.getId());
  }

  @Override
  public INodeWithAdditionalFields put(INodeWithAdditionalFields e) {
    if (e.isDirectory() || e.isSymlink()) {
      return dirs.put(e); // resident
    }
    slim.cache().put(e.asFile());
    return null;
  }

  @Override
  public INodeWithAdditionalFields remove(INode key) {
    slim.removedFromMap(key);
    INodeWithAdditionalFields d = dirs.remove(key);
    if (d == null) {
      slim.cache().remove(key.getId());
    }
    return d;
  }

  @Override
  public void clear() {
    dirs.clear();
    slim.cache().clear();
  }

  @Override
  public Iterator<INodeWithAdditionalFields> iterator() {
    final Iterator<INodeWithAdditionalFields> dirIt = dirs.iterator();
    final long[] ids = slim.pages().keys();
    return new Iterator<INodeWithAdditionalFields>() {
      private int next;
      private INodeWithAdditionalFields pending;

      @Override
      public boolean hasNext() {
        if (pending != null) {
          return true;
        }
        if (dirIt.hasNext()) {
          pending = dirIt.next();
          return true;
        }
        while (next < ids.length) {
          long id = ids[next++];
          if (slim.resident(id) == null) {
            pending = slim.file(id);
            return true;
          }
        }
        return false;
      }

      @Override
      public INodeWithAdditionalFields next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        INodeWithAdditionalFields n = pending;
        pending = null;
        return n;
      }

      @Override
      public void remove() {
        throw new UnsupportedOperationException();
      }
    };
  }
}
