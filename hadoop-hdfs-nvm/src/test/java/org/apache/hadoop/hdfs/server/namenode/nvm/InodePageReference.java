package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The inode page encoder as it was before pages were encoded in place into the batch (PageCodec at
 * c646d63: a heap image of its own, copied into the batch): the reference {@link
 * InodePageInPlaceTest} holds the in-place encoder to, byte for byte.
 */
final class InodePageReference {
  private InodePageReference() {}

  static byte[] inode(
      InodeAttrs a,
      long id,
      long parentPage,
      long parentId,
      long perm,
      long uc,
      long firstNameExt,
      long attrsWord,
      long firstTargetExt) {
    ByteBuffer b = ByteBuffer.allocate(PAGE_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(PG_STATE, stateWord(a.kind(), STATE_PENDING));
    b.putLong(IN_ID, id);
    b.putLong(IN_PARENT_PAGE, parentPage);
    b.putLong(IN_PARENT_ID, parentId);
    b.putLong(IN_MTIME, a.mtime);
    b.putLong(IN_ATIME, a.atime);
    b.putLong(IN_PERM, perm);
    b.position(IN_NAME_LEN);
    b.put(nameArea(a.name, firstNameExt));
    b.putLong(IN_ATTRS, attrsWord);
    if (a.symlinkTarget != null) {
      b.putLong(SL_TARGET_LEN, a.symlinkTarget.length);
      b.putLong(SL_TARGET_EXT, firstTargetExt);
      b.position(SL_TARGET_INLINE);
      b.put(a.symlinkTarget, 0, Math.min(a.symlinkTarget.length, SYMLINK_TARGET_INLINE_MAX));
    } else if (a.directory) {
      b.putLong(DI_NS_QUOTA, a.nsQuota);
      b.putLong(DI_DS_QUOTA, a.dsQuota);
      for (int i = 0; i < DI_TYPE_QUOTA_COUNT; i++) {
        b.putLong(DI_TYPE_QUOTA + 8 * i, a.typeQuotas[i]);
      }
      b.putLong(DI_STORAGE_POLICY, a.storagePolicy);
    } else {
      b.putLong(
          FI_HEADER, PageCodec.fileHeader(a.preferredBlockSize, a.replication, a.storagePolicy));
      b.putLong(FI_UC, uc);
      b.putLong(FI_BLOCK_COUNT, 0);
      b.putLong(FI_BLOCK_EXT, 0);
    }
    return b.array();
  }

  private static byte[] nameArea(byte[] name, long firstExt) {
    ByteBuffer b =
        ByteBuffer.allocate(IN_NAME_INLINE + NAME_INLINE_MAX - IN_NAME_LEN)
            .order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(name.length).putLong(firstExt).put(name, 0, Math.min(name.length, NAME_INLINE_MAX));
    return b.array();
  }
}
