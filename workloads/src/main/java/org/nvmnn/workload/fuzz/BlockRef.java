package org.nvmnn.workload.fuzz;

import org.apache.hadoop.hdfs.protocol.ExtendedBlock;

/**
 * A block argument, written symbolically so that a shortened sequence still passes the blocks its
 * own calls returned (block ids and generation stamps depend on everything allocated before):
 * {@code last("/f")} is the last block this NameNode returned for /f (addBlock, append,
 * updatePipeline) with the length the fake DataNode wrote; {@code pipe("/f")} is that block with
 * the generation stamp updateBlockForPipeline returned; {@code blk(id,gs,len)} a literal; {@code
 * null}. Modifiers shift the id or generation stamp or set the length: {@code
 * last("/f").gs(-1).len(0)}.
 */
final class BlockRef {
  enum Kind {
    NULL,
    LAST,
    PIPE,
    LITERAL
  }

  static final BlockRef NULL = new BlockRef(Kind.NULL, null, 0, 0, 0, 0, 0, null);

  final Kind kind;
  final String path;
  final long id;
  final long gs;
  final long len;
  final long dId;
  final long dGs;
  final Long setLen;

  private BlockRef(
      Kind kind, String path, long id, long gs, long len, long dId, long dGs, Long setLen) {
    this.kind = kind;
    this.path = path;
    this.id = id;
    this.gs = gs;
    this.len = len;
    this.dId = dId;
    this.dGs = dGs;
    this.setLen = setLen;
  }

  static BlockRef last(String path) {
    return new BlockRef(Kind.LAST, path, 0, 0, 0, 0, 0, null);
  }

  static BlockRef pipe(String path) {
    return new BlockRef(Kind.PIPE, path, 0, 0, 0, 0, 0, null);
  }

  static BlockRef literal(long id, long gs, long len) {
    return new BlockRef(Kind.LITERAL, null, id, gs, len, 0, 0, null);
  }

  BlockRef shiftId(long d) {
    return new BlockRef(kind, path, id, gs, len, dId + d, dGs, setLen);
  }

  BlockRef shiftGs(long d) {
    return new BlockRef(kind, path, id, gs, len, dId, dGs + d, setLen);
  }

  BlockRef withLen(long l) {
    return new BlockRef(kind, path, id, gs, len, dId, dGs, l);
  }

  /** The block to send, from this side's bindings; null for NULL or an unknown path. */
  ExtendedBlock resolve(Bindings b) {
    ExtendedBlock base;
    switch (kind) {
      case NULL:
        return null;
      case LITERAL:
        base = new ExtendedBlock(b.blockPoolId(), id, len, gs);
        break;
      case PIPE:
        base = b.pipelineBlock(path);
        break;
      default:
        base = b.lastBlock(path);
    }
    if (base == null) {
      return null;
    }
    ExtendedBlock r =
        new ExtendedBlock(
            base.getBlockPoolId(),
            base.getBlockId() + dId,
            setLen != null ? setLen : base.getNumBytes(),
            base.getGenerationStamp() + dGs);
    return r;
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    switch (kind) {
      case NULL:
        return "null";
      case LITERAL:
        b.append("blk(").append(id).append(',').append(gs).append(',').append(len).append(')');
        break;
      case PIPE:
        b.append("pipe(").append(Text.quote(path)).append(')');
        break;
      default:
        b.append("last(").append(Text.quote(path)).append(')');
    }
    if (dId != 0) {
      b.append(".id(").append(dId).append(')');
    }
    if (dGs != 0) {
      b.append(".gs(").append(dGs).append(')');
    }
    if (setLen != null) {
      b.append(".len(").append(setLen).append(')');
    }
    return b.toString();
  }

  static BlockRef parse(Lexer in) {
    String head = in.ident();
    BlockRef r;
    switch (head) {
      case "null":
        return NULL;
      case "last":
      case "pipe":
        in.expect('(');
        String p = in.string();
        in.expect(')');
        r = head.equals("last") ? last(p) : pipe(p);
        break;
      case "blk":
        in.expect('(');
        long id = in.number();
        in.expect(',');
        long gs = in.number();
        in.expect(',');
        long len = in.number();
        in.expect(')');
        r = literal(id, gs, len);
        break;
      default:
        throw in.error("expected a block (last, pipe, blk, null)");
    }
    while (in.eat('.')) {
      String m = in.ident();
      in.expect('(');
      long v = in.number();
      in.expect(')');
      switch (m) {
        case "id":
          r = r.shiftId(v);
          break;
        case "gs":
          r = r.shiftGs(v);
          break;
        case "len":
          r = r.withLen(v);
          break;
        default:
          throw in.error("unknown block modifier " + m);
      }
    }
    return r;
  }

  /** The path this reference follows, or null. */
  String path() {
    return path;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BlockRef && o.toString().equals(toString());
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }
}
