package org.apache.hadoop.hdfs.server.namenode;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.Iterator;
import org.apache.hadoop.hdfs.server.common.Storage.StorageDirectory;
import org.apache.hadoop.hdfs.server.namenode.NNStorage.NameNodeDirType;

/**
 * The HA writer's mark: while an NVM NameNode is active, each of its name directories holds {@code
 * current/nvm-ha-writer-segment} with the first transaction id of the journal segment it writes.
 * Its region persists every op's batch before the journal quorum acknowledges the op, so if the
 * NameNode dies in that segment, the region may hold edits the quorum never accepted (docs/ha.md,
 * "A region ahead of the quorum"). The mark names the segment whose recovered end decides that at
 * the next start ({@link NvmHaRegionCheck}); a segment ended cleanly (every op acknowledged, the
 * segment finalized) removes it.
 */
final class NvmHaWriterMark {
  static final String FILE_NAME = "nvm-ha-writer-segment";

  private NvmHaWriterMark() {}

  /** Writes the mark (temporary file, fsync, rename) before the segment's first op is logged. */
  static void segmentStarted(NNStorage storage, long segmentTxId) throws IOException {
    byte[] text = (segmentTxId + "\n").getBytes(StandardCharsets.UTF_8);
    for (Iterator<StorageDirectory> it = storage.dirIterator(NameNodeDirType.IMAGE);
        it.hasNext(); ) {
      File cur = it.next().getCurrentDir();
      File tmp = new File(cur, FILE_NAME + ".tmp");
      try (FileOutputStream out = new FileOutputStream(tmp)) {
        out.write(text);
        out.getFD().sync();
      }
      Files.move(
          tmp.toPath(),
          new File(cur, FILE_NAME).toPath(),
          StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** Removes the mark: the segment was finalized with every op acknowledged. */
  static void segmentEnded(NNStorage storage) throws IOException {
    for (Iterator<StorageDirectory> it = storage.dirIterator(NameNodeDirType.IMAGE);
        it.hasNext(); ) {
      Files.deleteIfExists(new File(it.next().getCurrentDir(), FILE_NAME).toPath());
    }
  }

  /** The segment the mark names (the highest over the name directories), or -1 without one. */
  static long segment(NNStorage storage) throws IOException {
    long txid = -1;
    for (Iterator<StorageDirectory> it = storage.dirIterator(NameNodeDirType.IMAGE);
        it.hasNext(); ) {
      File f = new File(it.next().getCurrentDir(), FILE_NAME);
      if (f.isFile()) {
        String s = new String(Files.readAllBytes(f.toPath()), StandardCharsets.UTF_8).trim();
        try {
          txid = Math.max(txid, Long.parseLong(s));
        } catch (NumberFormatException e) {
          throw new IOException("NVM NameNode: " + f + " does not hold a transaction id: " + s);
        }
      }
    }
    return txid;
  }
}
