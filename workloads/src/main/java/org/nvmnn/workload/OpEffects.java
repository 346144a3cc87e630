package org.nvmnn.workload;

/** Applies a completed operation (acknowledged, or in doubt and found done) to the model. */
final class OpEffects {
  private OpEffects() {}

  /** createdLength: CREATE only, the length the file has (op.length when acknowledged). */
  static void apply(SubtreeModel model, Op op, long createdLength) {
    switch (op.kind) {
      case MKDIR:
        model.mkdir(op.path, op.id);
        break;
      case CREATE:
        model.createFile(
            op.path,
            op.value,
            createdLength,
            FileContent.crc(op.value, (int) createdLength),
            op.inodeId,
            op.id);
        break;
      case RENAME:
      case RENAME_OLD_API:
      case RENAME_OVERWRITE:
        model.rename(op.path, op.target, op.id);
        break;
      case DELETE:
        model.delete(op.path, op.id);
        break;
      case SET_PERMISSION:
        model.setPermission(op.path, (short) op.value, op.id);
        break;
      case SET_REPLICATION:
        model.setReplication(op.path, (short) op.value, op.id);
        break;
      case SET_TIMES:
        model.setMtime(op.path, op.value, op.id);
        break;
      case CREATE_SNAPSHOT:
        model.createSnapshot(Op.snapshotName(op.path), op.id);
        break;
      case RENAME_SNAPSHOT:
        model.snapshots().rename(Op.snapshotName(op.path), Op.snapshotName(op.target), op.id);
        break;
      case DELETE_SNAPSHOT:
        model.snapshots().delete(Op.snapshotName(op.path), op.id);
        break;
      default:
        throw new IllegalArgumentException(op.kind.name());
    }
  }
}
