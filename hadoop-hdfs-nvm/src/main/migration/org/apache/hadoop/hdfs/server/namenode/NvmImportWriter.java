package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;
import org.apache.hadoop.hdfs.server.namenode.snapshot.Snapshot;
import org.apache.hadoop.hdfs.util.ReadOnlyList;

/**
 * Writes a namespace the stock loader built into a fresh region, with the NameNode's own encoders
 * ({@link InodeEncoder#attrs}, {@link InodeEncoder#stageState}): the root and the counters first,
 * then each directory's children, breadth first. A transaction can only create under a committed
 * page and cannot refer to a page it creates, so children are created in one batch and their block
 * lists written in the next.
 */
final class NvmImportWriter {
  /**
   * Creates per batch; each adds one undo-logged state word (24 bytes of the 8168-byte undo
   * record).
   */
  static final int CREATES_PER_BATCH = 64;

  /**
   * Block lists per batch; each rewrites up to 4 inline records, the count and the chain link
   * (about 210 undo bytes).
   */
  static final int BLOCK_LISTS_PER_BATCH = 16;

  /** Staged batches the import lets wait before it commits them (group commit). */
  static final long STAGED_BATCHES_MAX = 1024;

  private NvmImportWriter() {}

  static void write(FSNamesystem fsn, long lastTxId, InodeStore store) throws IOException {
    FSDirectory fsd = fsn.getFSDirectory();
    INodeDirectory root = fsd.getRoot();
    long rootPage =
        store.format(
            root.getModificationTime(),
            root.getFsPermissionShort(),
            root.getUserName(),
            root.getGroupName());
    try (Txn t = store.begin()) {
      // before any block record: a record is never ahead of the counters (the NameNode's rebuild
      // checks it)
      InodeEncoder.stageCounters(t, fsn.getBlockIdManager(), fsd.getLastInodeId());
      t.raiseCounter(RegionLayout.SB_LAST_TXID, lastTxId);
      InodeEncoder.stageState(t, rootPage, root);
      t.commit();
    }
    NvmTokenWriteThrough.importState(
        store, fsn.getDelegationTokenSecretManager().saveSecretManagerState());
    NvmCacheWriteThrough.importState(store, fsn);
    Deque<INodeDirectory> dirs = new ArrayDeque<INodeDirectory>();
    Deque<Long> dirPages = new ArrayDeque<Long>();
    dirs.add(root);
    dirPages.add(rootPage);
    while (!dirs.isEmpty()) {
      INodeDirectory dir = dirs.poll();
      long page = dirPages.poll();
      ReadOnlyList<INode> children = dir.getChildrenList(Snapshot.CURRENT_STATE_ID);
      for (int from = 0; from < children.size(); from += CREATES_PER_BATCH) {
        int to = Math.min(children.size(), from + CREATES_PER_BATCH);
        long[] created = new long[to - from];
        try (Txn t = store.begin()) {
          for (int i = from; i < to; i++) {
            created[i - from] = t.create(page, InodeEncoder.attrs(t, children.get(i)));
          }
          t.commit();
        }
        writeBlockLists(store, children, from, to, created);
        store.syncIfMoreThan(STAGED_BATCHES_MAX);
        for (int i = from; i < to; i++) {
          if (children.get(i).isDirectory()) {
            dirs.add(children.get(i).asDirectory());
            dirPages.add(created[i - from]);
          }
        }
      }
    }
  }

  /**
   * The block lists of the files among {@code children[from, to)}, just created at {@code pages}.
   */
  private static void writeBlockLists(
      InodeStore store, ReadOnlyList<INode> children, int from, int to, long[] pages)
      throws IOException {
    Txn t = null;
    int staged = 0;
    try {
      for (int i = from; i < to; i++) {
        INode c = children.get(i);
        if (!c.isFile() || c.asFile().numBlocks() == 0) {
          continue;
        }
        if (t == null) {
          t = store.begin();
        }
        // every other field was written by the create, so only the block list differs; a
        // truncate the loaded edits left unrecovered brings its truncate block record
        InodeEncoder.stageState(t, pages[i - from], c);
        new NvmTruncateRecords(store).stage(t, c.asFile());
        if (++staged == BLOCK_LISTS_PER_BATCH) {
          t.commit();
          t = null;
          staged = 0;
        }
      }
      if (t != null) {
        t.commit();
        t = null;
      }
    } finally {
      if (t != null) {
        t.close();
      }
    }
  }
}
