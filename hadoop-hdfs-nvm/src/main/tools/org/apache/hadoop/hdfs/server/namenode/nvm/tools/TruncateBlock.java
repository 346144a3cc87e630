package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The payload of a RECORD_TRUNCATE_BLOCK record (region-format.md §5.5): the truncate block of the
 * file whose inode id is the record's key, three little-endian u64s laid out as a block record
 * (block id, bytes, generation stamp).
 */
final class TruncateBlock {
  final long blockId;
  final long numBytes;
  final long generationStamp;

  private TruncateBlock(long blockId, long numBytes, long generationStamp) {
    this.blockId = blockId;
    this.numBytes = numBytes;
    this.generationStamp = generationStamp;
  }

  /** The payload length every truncate block record has (the NameNode refuses another). */
  static final int PAYLOAD_BYTES = BLOCK_RECORD_SIZE;

  /** The truncate block in {@code payload}, or null if it is not {@link #PAYLOAD_BYTES} long. */
  static TruncateBlock decode(byte[] payload) {
    if (payload == null || payload.length != PAYLOAD_BYTES) {
      return null;
    }
    ByteBuffer b = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
    return new TruncateBlock(b.getLong(BR_ID), b.getLong(BR_NUM_BYTES), b.getLong(BR_GENSTAMP));
  }
}
