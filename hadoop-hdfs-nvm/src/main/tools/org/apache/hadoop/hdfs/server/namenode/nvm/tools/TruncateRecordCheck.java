package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;

/**
 * One RECORD_TRUNCATE_BLOCK record against the file it names (region-format.md §5.5). The
 * NameNode's restore (NvmTruncateRecords.restore) refuses a payload that is not 24 bytes ({@link
 * Finding.Kind#BAD_RECORD}); two records for one inode are {@link RecordCheck}'s. What the writer
 * never leaves, which the restore ignores with a warning or trusts, is a {@link
 * Finding.Kind#BAD_TRUNCATE_RECORD}: a key that is not the id of an attached file, a file that does
 * not end in a block under construction (complete, its last block complete, or without blocks), and
 * a truncate block whose id is not the last block's (NVM mode truncates in place; 2.7.3 would take
 * another id for a copy-on-truncate and make a new block of it).
 */
final class TruncateRecordCheck {
  private TruncateRecordCheck() {}

  static void check(RegionModel m, RecordPage r, List<Finding> out) {
    if (r.length() != TruncateBlock.PAYLOAD_BYTES) {
      out.add(
          new Finding(
              Finding.Kind.BAD_RECORD,
              r.page + RC_LEN,
              r.describe()
                  + ": payload length "
                  + Long.toUnsignedString(r.length())
                  + " is not "
                  + TruncateBlock.PAYLOAD_BYTES
                  + " (block id, bytes, generation stamp); the NameNode refuses to start"));
      return;
    }
    TruncateBlock b = TruncateBlock.decode(r.payload());
    if (b == null) {
      return; // a chain where none belongs: ChainCheck reports it
    }
    String why = fileProblem(m, r.key(), b);
    if (why != null) {
      long at = why.startsWith("block") ? r.payloadOffset(BR_ID) : r.page + RC_KEY;
      out.add(
          new Finding(
              Finding.Kind.BAD_TRUNCATE_RECORD,
              at,
              r.describe()
                  + " for inode "
                  + r.key()
                  + ": "
                  + why
                  + "; the writer keeps a truncate record only beside the last block under"
                  + " construction it truncates, so the record or the file is damaged"));
    }
  }

  /**
   * Why inode {@code id} is not a file whose truncate {@code b} can be: a message starting with
   * "block" when the block id is what differs; null if it is one.
   */
  private static String fileProblem(RegionModel m, long id, TruncateBlock b) {
    long page = id == 0 ? LongLongMap.MISSING : m.attachedPageOfId(id);
    if (page == LongLongMap.MISSING) {
      return "no attached inode has this id";
    }
    InodePage f = m.inode(page);
    String file = Paths.describe(m, page);
    if (!f.isFile()) {
      return file + " is a " + (f.isDirectory() ? "directory" : "symlink") + ", not a file";
    }
    if (f.word(FI_UC) == 0) {
      return file + " is not under construction";
    }
    if (f.lastBlockComplete()) {
      return file + " is under construction, but its last block is complete";
    }
    if (f.blockCount() == 0) {
      return file + " has no blocks";
    }
    ExtChain chain = ExtChain.blocks(f, null);
    long[] records = f.blockRecordOffsets(chain);
    if (chain.problem() != null || records.length != f.blockCount()) {
      return null; // a broken block chain: ChainCheck reports it
    }
    long last = m.image.getLong(records[records.length - 1] + BR_ID);
    if (last == b.blockId) {
      return null;
    }
    return "block id "
        + b.blockId
        + " is not the last block "
        + last
        + " of "
        + file
        + " (NVM mode truncates in place: 2.7.3 would take another id for a copy-on-truncate)";
  }
}
