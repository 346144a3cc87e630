package org.nvmnn.workload;

import java.util.Set;
import java.util.TreeSet;

/** What one worker counted. Written by its thread only; read by main after the thread ended. */
final class WorkerTally {
  long acknowledged;
  long inDoubt;
  long inDoubtDone;
  long inDoubtNotDone;
  long notAllOrNothing;
  long unexpectedErrors;
  long verifications;
  long verificationFailures;

  /** Acknowledged createSnapshot, renameSnapshot, deleteSnapshot (included in acknowledged). */
  long snapshotsCreated;

  long snapshotsRenamed;
  long snapshotsDeleted;

  /** Snapshot operations in doubt (included in inDoubt), and those found done / not done. */
  long snapshotOpsInDoubt;

  long snapshotOpsInDoubtDone;
  long snapshotOpsInDoubtNotDone;

  /** Snapshots compared whole with their copy in verifications that found no difference. */
  long snapshotsVerified;

  /** Entries of those snapshots. */
  long snapshotEntriesVerified;

  /** Ids of acknowledged operations whose effect was found missing or changed. */
  final Set<String> lostOps = new TreeSet<>();

  void add(WorkerTally o) {
    acknowledged += o.acknowledged;
    inDoubt += o.inDoubt;
    inDoubtDone += o.inDoubtDone;
    inDoubtNotDone += o.inDoubtNotDone;
    notAllOrNothing += o.notAllOrNothing;
    unexpectedErrors += o.unexpectedErrors;
    verifications += o.verifications;
    verificationFailures += o.verificationFailures;
    snapshotsCreated += o.snapshotsCreated;
    snapshotsRenamed += o.snapshotsRenamed;
    snapshotsDeleted += o.snapshotsDeleted;
    snapshotOpsInDoubt += o.snapshotOpsInDoubt;
    snapshotOpsInDoubtDone += o.snapshotOpsInDoubtDone;
    snapshotOpsInDoubtNotDone += o.snapshotOpsInDoubtNotDone;
    snapshotsVerified += o.snapshotsVerified;
    snapshotEntriesVerified += o.snapshotEntriesVerified;
    lostOps.addAll(o.lostOps);
  }

  /** Counts an acknowledged snapshot operation by kind; other kinds are not counted here. */
  void snapshotAcknowledged(Op.Kind kind) {
    switch (kind) {
      case CREATE_SNAPSHOT:
        snapshotsCreated++;
        break;
      case RENAME_SNAPSHOT:
        snapshotsRenamed++;
        break;
      case DELETE_SNAPSHOT:
        snapshotsDeleted++;
        break;
      default:
        break;
    }
  }

  long snapshotOpsAcknowledged() {
    return snapshotsCreated + snapshotsRenamed + snapshotsDeleted;
  }

  boolean clean() {
    return lostOps.isEmpty()
        && notAllOrNothing == 0
        && unexpectedErrors == 0
        && verificationFailures == 0;
  }
}
