package org.apache.hadoop.hdfs.server.namenode;

import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.fs.permission.PermissionStatus;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguous;

/** Files for the inode cache's tests: an empty, closed file named "f" + its id. */
final class CachedFiles {
  private static final PermissionStatus PERM =
      new PermissionStatus("u", "g", FsPermission.getFileDefault());

  private CachedFiles() {}

  static INodeFile file(long id) {
    return new INodeFile(
        id,
        DFSUtil.string2Bytes("f" + id),
        PERM,
        1L,
        1L,
        new BlockInfoContiguous[0],
        (short) 1,
        1L << 20);
  }
}
