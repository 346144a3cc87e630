package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;

/**
 * Writes a namespace the stock loader built into a fresh region, with the NameNode's own encoders
 * ({@link InodeEncoder#attrs}, {@link InodeEncoder#stageState}): the root and the counters first,
 * then the pages in {@link NvmImportTree}'s order (the current tree breadth first, then what only
 * snapshots hold), then the snapshot records. A transaction can only create under a committed page
 * and cannot refer to a page it creates, so children are created in one batch and their block lists
 * written in the next.
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

  static void write(
      FSNamesystem fsn,
      long lastTxId,
      InodeStore store,
      NvmImportTree tree,
      List<NvmImportSnapshots.Record> records)
      throws IOException {
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
    // the pages in the tree's order, each parent's children (consecutive there) in batches
    Map<Long, Long> pageOf = new HashMap<Long, Long>();
    pageOf.put(root.getId(), rootPage);
    List<NvmImportTree.Page> pages = tree.pages;
    for (int from = 1; from < pages.size(); ) {
      INodeDirectory parent = pages.get(from).parent;
      int to = from + 1;
      while (to < pages.size() && to - from < CREATES_PER_BATCH && pages.get(to).parent == parent) {
        to++;
      }
      long parentPage = pageOf.get(parent.getId());
      List<INode> children = new ArrayList<INode>(to - from);
      long[] created = new long[to - from];
      try (Txn t = store.begin()) {
        for (int i = from; i < to; i++) {
          INode c = pages.get(i).inode;
          children.add(c);
          created[i - from] = t.create(parentPage, InodeEncoder.attrs(t, c));
        }
        t.commit();
      }
      for (int i = 0; i < created.length; i++) {
        pageOf.put(children.get(i).getId(), created[i]);
      }
      writeBlockLists(store, children, created);
      store.syncIfMoreThan(STAGED_BATCHES_MAX);
      from = to;
    }
    NvmImportSnapshots.write(store, records);
  }

  /** The block lists of the files among {@code children}, just created at {@code pages}. */
  private static void writeBlockLists(InodeStore store, List<INode> children, long[] pages)
      throws IOException {
    Txn t = null;
    int staged = 0;
    try {
      for (int i = 0; i < children.size(); i++) {
        INode c = children.get(i);
        if (!c.isFile() || c.asFile().numBlocks() == 0) {
          continue;
        }
        if (t == null) {
          t = store.begin();
        }
        // every other field was written by the create, so only the block list differs; a
        // truncate the loaded edits left unrecovered brings its truncate block record
        InodeEncoder.stageState(t, pages[i], c);
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
