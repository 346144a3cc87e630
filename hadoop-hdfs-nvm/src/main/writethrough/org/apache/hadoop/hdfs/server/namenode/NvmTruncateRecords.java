package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguous;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguousUnderConstruction;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;
import org.apache.hadoop.hdfs.server.namenode.nvm.RecordView;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;

/**
 * The truncate blocks of files whose truncate is still being recovered (region-format.md §5.5,
 * {@code RECORD_TRUNCATE_BLOCK}). A truncate inside a block leaves the file under construction with
 * its last block under construction and, beside it, the block the DataNodes are to truncate it to
 * (the truncate block: the new length in that block and the recovery's generation stamp). 2.7.3
 * logs it in OP_TRUNCATE and its replay sets it again; an inode page has no field for it, so it is
 * a record keyed by the file's inode id, kept in step with memory by every batch that stages the
 * file's state ({@link #stage}): created by the truncate's batch, replaced if it changes, removed
 * with the batch that completes the file (commitBlockSynchronization) or removes it. At restart it
 * goes back onto the file's last block, so a lease recovery truncates the replicas as the stock
 * NameNode's would after an edit-log replay.
 */
final class NvmTruncateRecords {
  private static final Log LOG = LogFactory.getLog(NvmTruncateRecords.class);
  private static final int PAYLOAD_BYTES = 24;

  private final InodeStore store;

  /** Inode id → record page, for every file with a truncate block. */
  private final LongLongMap pages = new LongLongMap();

  NvmTruncateRecords(InodeStore store) {
    this.store = store;
  }

  /** The truncate block of {@code f}'s last block, or null if it has none. */
  private static Block truncateBlock(INodeFile f) {
    BlockInfoContiguous last = f.getLastBlock();
    if (last instanceof BlockInfoContiguousUnderConstruction) {
      return ((BlockInfoContiguousUnderConstruction) last).getTruncateBlock();
    }
    return null;
  }

  static byte[] encode(Block b) {
    return ByteBuffer.allocate(PAYLOAD_BYTES)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putLong(b.getBlockId())
        .putLong(b.getNumBytes())
        .putLong(b.getGenerationStamp())
        .array();
  }

  static Block decode(byte[] payload) throws IOException {
    if (payload.length != PAYLOAD_BYTES) {
      throw new IOException(
          "NVM region: a truncate block record of " + payload.length + " bytes, not 24");
    }
    ByteBuffer b = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
    return new Block(b.getLong(), b.getLong(), b.getLong());
  }

  /**
   * Stages the record of {@code f} as memory has it now: created, replaced or removed. Cheap when
   * the file has none and had none. The map follows at once: a batch that fails stops the NameNode.
   */
  void stage(Txn t, INodeFile f) throws IOException {
    Block want = truncateBlock(f);
    if (want == null && pages.size() == 0) {
      return;
    }
    long id = f.getId();
    long have = pages.get(id);
    if (want == null && have == LongLongMap.MISSING) {
      return;
    }
    byte[] payload = want == null ? null : encode(want);
    if (have != LongLongMap.MISSING) {
      if (payload != null && Arrays.equals(store.record(have).payload(), payload)) {
        return;
      }
      t.removeRecord(have);
      pages.remove(id);
    }
    if (payload != null) {
      pages.put(id, t.createRecord(RegionLayout.RECORD_TRUNCATE_BLOCK, id, 0, payload));
    }
  }

  /** Stages the removal of the records of removed inodes (a delete, an overwrite, a concat). */
  void stageRemovals(Txn t, long[] ids, int n) throws IOException {
    if (pages.size() == 0) {
      return;
    }
    for (int i = 0; i < n; i++) {
      long page = pages.remove(ids[i]);
      if (page != LongLongMap.MISSING) {
        t.removeRecord(page);
      }
    }
  }

  /**
   * For a recovered region, after the namespace was rebuilt: each record's truncate block back onto
   * its file's last block (under construction, as the page says). A record whose file does not end
   * in a block under construction is one no batch leaves; it is reported and dropped by the file's
   * next change.
   */
  static NvmTruncateRecords restore(FSDirectory fsd, InodeStore store, long[] recordPages)
      throws IOException {
    NvmTruncateRecords r = new NvmTruncateRecords(store);
    for (long page : recordPages) {
      RecordView v = store.record(page);
      if (v.type() != RegionLayout.RECORD_TRUNCATE_BLOCK) {
        continue;
      }
      if (r.pages.put(v.key(), page) != LongLongMap.MISSING) {
        throw new IOException(
            "NVM region: two truncate block records for inode " + v.key() + " (page " + page + ")");
      }
      Block b = decode(v.payload());
      INode n = fsd.getInode(v.key());
      BlockInfoContiguous last = n != null && n.isFile() ? n.asFile().getLastBlock() : null;
      if (last instanceof BlockInfoContiguousUnderConstruction) {
        ((BlockInfoContiguousUnderConstruction) last).setTruncateBlock(b);
      } else {
        LOG.warn(
            "NVM region: truncate block record page "
                + page
                + " names inode "
                + v.key()
                + ", which does not end in a block under construction; ignored");
      }
    }
    return r;
  }
}
