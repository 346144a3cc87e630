package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException.ErrorCode;

/**
 * What an inode page can hold, and how many pages an inode takes. {@link Txn} checks every value
 * against these limits before it stages anything; callers that must refuse before they change
 * anything else (the import's scan) ask the same questions here without a region.
 */
public final class InodeLimits {
  private InodeLimits() {}

  /**
   * Throws the NvmException {@link Txn#create} would throw for these attributes (name, mode, file
   * header, under-construction pair) without touching a region.
   */
  public static void validate(InodeAttrs a) throws NvmException {
    checkAttrs(a);
  }

  /**
   * Pages an inode with these attributes and {@code blocks} block records takes: its page, its
   * name-extension pages and its block-extension pages (strings not included).
   */
  public static long pagesFor(InodeAttrs a, int blocks) {
    return 1
        + PageCodec.nameExtPages(a.name.length)
        + blockExtPages(blocks)
        + attrExtPages(a.attributes.length)
        + (a.symlinkTarget == null ? 0 : PageCodec.symlinkTargetExtPages(a.symlinkTarget.length));
  }

  /** ATTR_EXT pages an attribute encoding of {@code bytes} bytes takes. */
  public static int attrExtPages(long bytes) {
    return PageCodec.byteExtPages(bytes);
  }

  /** NAME_EXT pages a symlink target of {@code bytes} bytes takes past its page. */
  public static int symlinkTargetPages(long bytes) {
    return PageCodec.symlinkTargetExtPages((int) Math.min(bytes, SYMLINK_TARGET_MAX));
  }

  /** A symlink target the format stores: 1..SYMLINK_TARGET_MAX bytes. */
  public static void checkSymlinkTarget(long bytes) throws NvmException {
    if (bytes < 1) {
      throw invalid("empty symlink target");
    }
    if (bytes > SYMLINK_TARGET_MAX) {
      throw new NvmException(
          ErrorCode.ETOOLONG,
          "symlink target of "
              + bytes
              + " bytes exceeds the region's SYMLINK_TARGET_MAX of "
              + SYMLINK_TARGET_MAX);
    }
  }

  /** An attribute encoding the format stores: at most ATTRS_MAX bytes. */
  public static void checkAttributes(long bytes) throws NvmException {
    if (bytes > ATTRS_MAX) {
      throw new NvmException(
          ErrorCode.ETOOLONG,
          "the inode's ACL entries and xattrs take "
              + bytes
              + " bytes encoded, over the region's ATTRS_MAX of "
              + ATTRS_MAX);
    }
  }

  /** BLOCK_EXT pages holding the block records past the inline ones. */
  public static int blockExtPages(int blocks) {
    return blocks <= BLOCKS_INLINE_MAX
        ? 0
        : (blocks - BLOCKS_INLINE_MAX + BLOCKS_EXT_MAX - 1) / BLOCKS_EXT_MAX;
  }

  static void checkAttrs(InodeAttrs a) throws NvmException {
    checkName(a.name);
    checkMode(a.mode);
    checkAttributes(a.attributes.length);
    if (a.symlinkTarget != null) {
      checkSymlinkTarget(a.symlinkTarget.length);
    } else if (!a.directory) {
      checkFileHeader(a.preferredBlockSize, a.replication, a.storagePolicy);
      if ((a.clientName == null) != (a.clientMachine == null)) {
        throw invalid("an under-construction file needs both client name and client machine");
      }
    }
  }

  /** A path component: 1..NAME_MAX bytes, no '/', not "." or "..". */
  static void checkName(byte[] name) throws NvmException {
    if (name == null || name.length == 0) {
      throw invalid("empty inode name");
    }
    if (name.length > NAME_MAX) {
      throw new NvmException(
          ErrorCode.ETOOLONG, "name of " + name.length + " bytes exceeds NAME_MAX " + NAME_MAX);
    }
    for (byte b : name) {
      if (b == '/') {
        throw invalid("name contains '/': " + new String(name, StandardCharsets.UTF_8));
      }
    }
    if ((name.length == 1 && name[0] == '.')
        || (name.length == 2 && name[0] == '.' && name[1] == '.')) {
      throw invalid("name '" + new String(name, StandardCharsets.UTF_8) + "' is reserved");
    }
  }

  static void checkFileHeader(long blockSize, int replication, int policy) throws NvmException {
    if (blockSize < 0 || blockSize > PageCodec.BLOCK_SIZE_MAX) {
      throw invalid("preferred block size " + blockSize + " does not fit 48 bits");
    }
    if (replication < 0 || replication > PageCodec.REPLICATION_MAX) {
      throw invalid("replication " + replication + " outside 0.." + PageCodec.REPLICATION_MAX);
    }
    if (policy < 0 || policy > PageCodec.POLICY_MAX) {
      throw invalid("storage policy " + policy + " outside 0.." + PageCodec.POLICY_MAX);
    }
  }

  static void checkMode(int mode) throws NvmException {
    if ((mode & ~0xffff) != 0) {
      throw invalid("permission " + mode + " does not fit 16 bits");
    }
  }

  static void checkStorageType(int storageType) throws NvmException {
    if (storageType < 0 || storageType >= DI_TYPE_QUOTA_COUNT) {
      throw invalid("storage type " + storageType + " outside 0.." + (DI_TYPE_QUOTA_COUNT - 1));
    }
  }

  static NvmException invalid(String msg) {
    return new NvmException(ErrorCode.EINVAL, msg);
  }
}
