package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.SB_WAL_CHECKPOINT;

import java.util.List;

/**
 * The findings about a region's write-ahead log (region-format.md §12.5), all at SB_WAL_CHECKPOINT,
 * the word that makes the region depend on its log: a log a read-write open refuses (NVM_ELOG), the
 * records it would replay (the region file may lack them), and a valid record whose contents it
 * refuses (NVM_ECORRUPT).
 */
final class LogCheck {
  private LogCheck() {}

  static void run(RegionModel m, List<Finding> out) {
    WriteAheadLog log = m.image.log();
    if (!log.isNeeded()) {
      return;
    }
    if (log.isRefused()) {
      out.add(
          new Finding(
              Finding.Kind.LOG_REFUSED,
              SB_WAL_CHECKPOINT,
              log.refusal + ". The rest of this report describes the region file alone"));
      return;
    }
    LogReplay r = log.replay;
    if (r.records > 0) {
      out.add(
          new Finding(
              Finding.Kind.LOG_PENDING,
              SB_WAL_CHECKPOINT,
              "the write-ahead log "
                  + log.file
                  + " holds "
                  + r.records
                  + (r.records == 1 ? " record" : " records")
                  + " of committed groups (seq "
                  + Long.toUnsignedString(r.firstSeq)
                  + (r.records == 1 ? "" : ".." + Long.toUnsignedString(r.lastSeq))
                  + ", "
                  + r.entries
                  + " entries, "
                  + r.bytes
                  + " bytes) from the checkpoint at LSN "
                  + Long.toUnsignedString(log.checkpoint)
                  + " to LSN "
                  + Long.toUnsignedString(r.end)
                  + ", where it ends: the region was not closed and its file may lack them; the"
                  + " next read-write open replays them. The rest of this report describes the"
                  + " region after that replay"));
    }
    if (r.badRecord != null) {
      out.add(
          new Finding(
              Finding.Kind.BAD_LOG_RECORD,
              SB_WAL_CHECKPOINT,
              "the record at LSN "
                  + Long.toUnsignedString(r.end)
                  + " of the write-ahead log "
                  + log.file
                  + " (file offset "
                  + LogRecord.fileOffset(r.end, log.capacity)
                  + ") is valid, its CRC matches, but "
                  + r.badRecord
                  + ": no library writes such a record; a read-write open refuses the region"
                  + " (NVM_ECORRUPT). The rest of this report describes the region with the records"
                  + " before it replayed"));
    }
  }
}
