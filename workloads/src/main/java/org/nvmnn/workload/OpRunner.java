package org.nvmnn.workload;

import java.io.IOException;
import java.util.EnumSet;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSOutputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * Runs one operation against HDFS. Returning normally means the NameNode acknowledged it; any
 * exception leaves it in doubt. mkdir and create never create parents (the model knows the parent
 * exists), so each call changes exactly what the model expects.
 */
final class OpRunner {
  private final DistributedFileSystem fs;

  OpRunner(DistributedFileSystem fs) {
    this.fs = fs;
  }

  void run(Op op) throws IOException {
    Path p = new Path(op.path);
    switch (op.kind) {
      case MKDIR:
        expect(fs.mkdir(p, FsPermission.getDirDefault()), op);
        break;
      case CREATE:
        create(p, op);
        break;
      case RENAME:
        fs.rename(p, new Path(op.target), Options.Rename.NONE);
        break;
      case RENAME_OLD_API:
        expect(fs.rename(p, new Path(op.target)), op);
        break;
      case RENAME_OVERWRITE:
        fs.rename(p, new Path(op.target), Options.Rename.OVERWRITE);
        break;
      case DELETE:
        expect(fs.delete(p, true), op);
        break;
      case SET_PERMISSION:
        fs.setPermission(p, new FsPermission((short) op.value));
        break;
      case SET_REPLICATION:
        expect(fs.setReplication(p, (short) op.value), op);
        break;
      case SET_TIMES:
        fs.setTimes(p, op.value, -1);
        break;
      case CREATE_SNAPSHOT:
        fs.createSnapshot(new Path(Op.snapshotRoot(op.path)), Op.snapshotName(op.path));
        break;
      case RENAME_SNAPSHOT:
        fs.renameSnapshot(
            new Path(Op.snapshotRoot(op.path)),
            Op.snapshotName(op.path),
            Op.snapshotName(op.target));
        break;
      case DELETE_SNAPSHOT:
        fs.deleteSnapshot(new Path(Op.snapshotRoot(op.path)), Op.snapshotName(op.path));
        break;
      default:
        throw new IllegalArgumentException(op.kind.name());
    }
  }

  /** create (RPC), write a few hundred bytes (DataNode), close (addBlock + complete RPCs). */
  private void create(Path p, Op op) throws IOException {
    byte[] data = FileContent.bytes(op.value, op.length);
    FSDataOutputStream out =
        fs.createNonRecursive(
            p,
            FsPermission.getFileDefault(),
            EnumSet.of(CreateFlag.CREATE),
            4096,
            (short) 1,
            fs.getDefaultBlockSize(p),
            null);
    op.createAcknowledged = true;
    op.inodeId = ((DFSOutputStream) out.getWrappedStream()).getFileId();
    try {
      out.write(data);
    } finally {
      out.close();
    }
  }

  private static void expect(boolean answer, Op op) throws UnexpectedResult {
    if (!answer) {
      throw new UnexpectedResult(op);
    }
  }
}
