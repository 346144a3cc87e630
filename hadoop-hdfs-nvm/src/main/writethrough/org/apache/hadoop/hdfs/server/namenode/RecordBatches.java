package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;

/**
 * How the record write-throughs (the secret manager's, the cache manager's) commit: one batch per
 * stock edit, whose failure stops the NameNode because memory has already changed; and, for an
 * import, many records {@link #RECORDS_PER_BATCH} to a batch.
 */
final class RecordBatches {
  private RecordBatches() {}

  /** Records per batch of an import: each record's commit is one log entry. */
  static final int RECORDS_PER_BATCH = 64;

  /** One step staged into a batch. */
  interface Stage {
    void stage(Txn t) throws IOException;
  }

  /** Stages {@code stages} in order and commits them as one batch, or stops the NameNode. */
  static void persistOrStop(InodeStore store, String what, Stage... stages) {
    try (Txn t = store.begin()) {
      for (Stage s : stages) {
        s.stage(t);
      }
      t.commit();
    } catch (IOException | RuntimeException e) {
      WriteThroughFailure.stop(what, e);
    }
  }

  /** Commits {@code stages} in order, {@link #RECORDS_PER_BATCH} to a batch (the import). */
  static void commitInBatches(InodeStore store, List<Stage> stages) throws IOException {
    for (int from = 0; from < stages.size(); from += RECORDS_PER_BATCH) {
      try (Txn t = store.begin()) {
        for (Stage s : stages.subList(from, Math.min(stages.size(), from + RECORDS_PER_BATCH))) {
          s.stage(t);
        }
        t.commit();
      }
    }
  }
}
