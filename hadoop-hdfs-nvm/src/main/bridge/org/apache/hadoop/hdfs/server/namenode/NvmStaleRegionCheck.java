package org.apache.hadoop.hdfs.server.namenode;

import java.io.File;
import java.io.IOException;
import java.util.Iterator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hdfs.server.common.Storage.StorageDirectory;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;

/**
 * Refuses a region that a stock NameNode has moved past: after a rollback (export, then the stock
 * NameNode on the name directory), switching NVM mode on again would find the old region and
 * silently lose everything the stock NameNode did since.
 *
 * <p>In NVM mode no edit is written and the region's last transaction id (SB_LAST_TXID, the start
 * of the current segment) is at least every transaction id in the name directories: old stock edits
 * end at or before the import's transaction, an exported fsimage is one below the segment that
 * follows it, and {@code seen_txid} never exceeds it. A stock NameNode that started on the
 * directory opens a segment at SB_LAST_TXID or later and writes its edits there, so an fsimage or
 * finalized segment ending above the region's transaction, an in-progress segment starting at or
 * above it, or a {@code seen_txid} above it means the region is out of date.
 */
final class NvmStaleRegionCheck {
  private static final Pattern IMAGE = Pattern.compile("fsimage(?:_rollback)?_(\\d+)");
  private static final Pattern EDITS = Pattern.compile("edits_(\\d+)-(\\d+)");
  private static final Pattern EDITS_IN_PROGRESS = Pattern.compile("edits_inprogress_(\\d+)");

  private NvmStaleRegionCheck() {}

  static void refuseIfStale(NNStorage storage, File region, long regionTxId) throws IOException {
    for (Iterator<StorageDirectory> it = storage.dirIterator(); it.hasNext(); ) {
      StorageDirectory sd = it.next();
      File cur = sd.getCurrentDir();
      String[] names = cur.list();
      for (String n : names == null ? new String[0] : names) {
        Matcher m;
        if ((m = IMAGE.matcher(n)).matches() && Long.parseLong(m.group(1)) > regionTxId
            || (m = EDITS.matcher(n)).matches() && Long.parseLong(m.group(2)) > regionTxId
            || (m = EDITS_IN_PROGRESS.matcher(n)).matches()
                && Long.parseLong(m.group(1)) >= regionTxId) {
          throw stale(region, regionTxId, new File(cur, n).getPath());
        }
      }
      long seen = NNStorage.readTransactionIdFile(sd);
      if (seen > regionTxId) {
        throw stale(
            region,
            regionTxId,
            NNStorage.getStorageFile(sd, NNStorage.NameNodeFile.SEEN_TXID) + " (" + seen + ")");
      }
    }
  }

  private static IOException stale(File region, long regionTxId, String evidence) {
    return new IOException(
        "NVM NameNode: region "
            + region
            + " is out of date: its last transaction is "
            + regionTxId
            + ", but "
            + evidence
            + " was written after it by a stock NameNode (a rollback?). Starting on the region "
            + "would lose what that NameNode did. Move the region aside and import the name directory again ('"
            + NvmMigrationTool.IMPORT_COMMAND
            + "', docs/migration.md), or start with "
            + NvmConfigKeys.NVM_ENABLED_KEY
            + "=false. But if it was 'hdfs namenode -recover' run in NVM mode (2.7.3 runs its own "
            + "recovery of the fsimage and edit log there, not of the region), the region is current "
            + "and an import would bring back that fsimage's older namespace: remove the fsimage and "
            + "edits files above transaction "
            + regionTxId
            + " and set seen_txid back to "
            + regionTxId
            + " instead (docs/unsupported-operations.md, \"Start-up options\")");
  }
}
