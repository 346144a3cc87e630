package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

/**
 * A delegation token identifier decoded from a token record's payload, as HDFS's {@code
 * DelegationTokenIdentifier.readFields} reads it (AbstractDelegationTokenIdentifier): a version
 * byte (0), owner, renewer and real user as Text, issue and max date as vlongs, sequence number and
 * master key id as vints. Bytes after the master key id are ignored, as readFields ignores them.
 */
final class TokenIdentifier {
  /** AbstractDelegationTokenIdentifier.VERSION. */
  static final byte VERSION = 0;

  final String owner;
  final String renewer;
  final String realUser;
  final long issueDate;
  final long maxDate;
  final int sequenceNumber;
  final int masterKeyId;

  /** The index of the sequence number's first byte in the payload. */
  final int sequenceNumberAt;

  private TokenIdentifier(WritableInput in) throws WritableInput.Malformed {
    byte version = in.readByte("version");
    if (version != VERSION) {
      throw new WritableInput.Malformed(0, "has version " + version + ", not " + VERSION);
    }
    owner = in.readText("owner");
    renewer = in.readText("renewer");
    realUser = in.readText("real user");
    issueDate = in.readVLong("issue date");
    maxDate = in.readVLong("max date");
    sequenceNumberAt = in.position();
    sequenceNumber = in.readVInt("sequence number");
    masterKeyId = in.readVInt("master key id");
  }

  /** Decodes {@code payload}; throws where HDFS's reader would refuse it. */
  static TokenIdentifier decode(byte[] payload) throws WritableInput.Malformed {
    return new TokenIdentifier(new WritableInput(payload));
  }
}
