package org.nvmnn.workload.fuzz;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.fs.CreateFlag;

/**
 * The calls that write files: create and append, and on files under construction addBlock,
 * complete, abandonBlock, fsync and the pipeline calls, and the fake DataNode's writes of blocks.
 * Block and file-id arguments name the file's last block and its id mostly ({@link BlockRef},
 * {@link FileRef}: resolved from the answers when the call is sent), hostile ones a stale
 * generation stamp, another id, another file's block, a literal.
 */
final class BlockCalls {
  private final Dice d;
  private final Random rnd;
  private final Model m;
  private final PathChoice paths;
  private final Values values;

  BlockCalls(Dice d, Model m, PathChoice paths, Values values) {
    this.d = d;
    this.rnd = d.rnd;
    this.m = m;
    this.paths = paths;
    this.values = values;
  }

  Op create() {
    String client = values.client(null);
    String p = rnd.nextInt(8) == 0 && m.files.size() > 0 ? m.files.random(rnd) : paths.freshPath();
    EnumSet<CreateFlag> flags;
    Set<String> tags = new HashSet<>();
    if (d.hostile()) {
      flags = anyCreateFlags();
      tags.add("flags");
    } else {
      flags =
          rnd.nextInt(4) == 0
              ? EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE)
              : EnumSet.of(CreateFlag.CREATE);
    }
    Op op =
        Op.of(
                Call.create,
                p,
                values.perm(),
                client,
                flags,
                rnd.nextInt(4) > 0,
                values.replication(),
                blockSize())
            .as(d.caller());
    op.tags.addAll(tags);
    return op;
  }

  Op append() {
    String p = rnd.nextInt(4) == 0 ? paths.openOrAny() : paths.fileOrAny();
    EnumSet<CreateFlag> f =
        d.hostile()
            ? anyCreateFlags()
            : rnd.nextInt(4) == 0
                ? EnumSet.of(CreateFlag.APPEND, CreateFlag.NEW_BLOCK)
                : EnumSet.of(CreateFlag.APPEND);
    return Op.of(Call.append, p, values.client(null), f).as(d.caller());
  }

  Op addBlock(String p, String client) {
    BlockRef prev = blockArg(p);
    FileRef id = fileIdArg(p);
    return Op.of(Call.addBlock, p, client, prev, id, rnd.nextInt(40) == 0)
        .as(d.callerMostlySuper());
  }

  Op complete() {
    return paths.withFile(
        p ->
            Op.of(Call.complete, p, values.client(values.holderOf(p)), blockArg(p), fileIdArg(p))
                .as(d.callerMostlySuper()));
  }

  Op abandonBlock() {
    return paths.withFile(
        p ->
            Op.of(
                Call.abandonBlock,
                blockArg(p),
                fileIdArg(p),
                p,
                values.client(values.holderOf(p))));
  }

  Op fsync() {
    return paths.withFile(
        p ->
            Op.of(
                Call.fsync,
                p,
                fileIdArg(p),
                values.client(values.holderOf(p)),
                d.hostile()
                    ? d.pick(new Long[] {-1L, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 40})
                    : (long) rnd.nextInt(5000)));
  }

  Op updateBlockForPipeline() {
    return paths.withFile(
        p -> Op.of(Call.updateBlockForPipeline, blockArg(p), values.client(values.holderOf(p))));
  }

  Op updatePipeline() {
    return paths.withFile(
        p ->
            Op.of(
                Call.updatePipeline,
                values.client(values.holderOf(p)),
                blockArg(p),
                d.hostile() ? blockArg(p) : BlockRef.pipe(p),
                rnd.nextInt(8) > 0));
  }

  /** A write to a block that may not be the file's last (or of no file any more). */
  Op dnWriteStray() {
    String p = paths.fileOrAny();
    BlockRef b = d.hostile() ? blockArg(p) : BlockRef.last(p);
    return Op.of(Call.dnWrite, b, writeLength());
  }

  /** The length the fake DataNode writes to a block. */
  Long writeLength() {
    if (!d.hostile()) {
      return d.pick(new Long[] {0L, 1L, 100L, 4096L, 1L << 20});
    }
    return d.pick(new Long[] {-1L, Long.MAX_VALUE, 128L << 20, (128L << 20) + 1});
  }

  private Long blockSize() {
    if (!d.hostile()) {
      return d.pick(new Long[] {1L << 20, 4L << 20, 128L << 20});
    }
    return d.pick(
        new Long[] {
          0L,
          1L,
          512L,
          (1L << 20) - 1,
          (1L << 20) + 1,
          Long.MAX_VALUE,
          -1L,
          Long.MIN_VALUE,
          1L << 40
        });
  }

  private BlockRef blockArg(String p) {
    if (!d.hostile()) {
      return BlockRef.last(p);
    }
    switch (rnd.nextInt(7)) {
      case 0:
        return BlockRef.NULL;
      case 1:
        return BlockRef.last(p).shiftGs(-1);
      case 2:
        return BlockRef.last(p).shiftGs(1);
      case 3:
        return BlockRef.last(p).shiftId(1);
      case 4:
        return BlockRef.last(p).withLen(d.pick(new Long[] {-1L, 0L, Long.MAX_VALUE, 7L}));
      case 5:
        return BlockRef.last(m.files.size() > 0 ? m.files.random(rnd) : p);
      default:
        return BlockRef.literal(1073741825L + rnd.nextInt(50), 1001 + rnd.nextInt(50), 0);
    }
  }

  private FileRef fileIdArg(String p) {
    if (!d.hostile()) {
      return rnd.nextInt(5) == 0 ? FileRef.literal(0) : FileRef.of(p);
    }
    return d.pick(
        new FileRef[] {
          FileRef.literal(1),
          FileRef.literal(16385),
          FileRef.literal(Long.MAX_VALUE),
          FileRef.literal(-1),
          FileRef.of(m.files.size() > 0 ? m.files.random(rnd) : p)
        });
  }

  /** Each flag with probability 1/3 (a draw per flag, in declaration order). */
  private EnumSet<CreateFlag> anyCreateFlags() {
    EnumSet<CreateFlag> s = EnumSet.noneOf(CreateFlag.class);
    for (CreateFlag f : CreateFlag.values()) {
      if (rnd.nextInt(3) == 0) {
        s.add(f);
      }
    }
    return s;
  }
}
