package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.junit.Assert.*;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Random;
import org.apache.hadoop.hdfs.protocol.CacheDirective;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;
import org.apache.hadoop.hdfs.protocol.proto.ClientNamenodeProtocolProtos.CacheDirectiveInfoExpirationProto;
import org.apache.hadoop.hdfs.protocol.proto.ClientNamenodeProtocolProtos.CacheDirectiveInfoProto;
import org.apache.hadoop.hdfs.protocol.proto.ClientNamenodeProtocolProtos.CachePoolInfoProto;
import org.apache.hadoop.hdfs.protocolPB.PBHelper;
import org.junit.Test;

/**
 * The tools' own protobuf reader ({@link ProtoInput}, {@link CachePoolPayload}, {@link
 * CacheDirectivePayload}) against Hadoop 2.7.3's generated parsers (protobuf-java 2.5.0): payloads
 * as PBHelper writes them decode to the same fields; hand-made wire-format corner cases (groups,
 * wire types 6 and 7, field 0, 10- and 11-byte varints, negative lengths, nesting of 64 and 65, a
 * repeated expiration) get the parser's verdict; and seeded random damage to real payloads ({@code
 * -Dnvm.mutants.seed=S}) is refused exactly when the parser refuses it, with the same fields when
 * it is not. What the restore refuses in a payload that parses ({@code problems()}) is held to
 * Hadoop's own checks: {@code CachePoolInfo.validate} for a pool, PBHelper.convert and {@code
 * CacheDirective}'s constructor (and a pool) for a directive.
 */
public class CachePayloadTest {
  private static final long SEED = Long.getLong("nvm.mutants.seed", 20261126L);
  private static final int MUTANTS = 10000;

  @Test
  public void poolsAsHadoopWritesThem() throws Exception {
    byte[] full = CacheSample.pool("hot \u00e9");
    CachePoolPayload p = CachePoolPayload.decode(full);
    assertEquals("hot \u00e9", p.name);
    assertEquals("hdfs", p.owner);
    assertEquals("supergroup", p.group);
    assertEquals(Integer.valueOf(0755), p.mode);
    assertEquals(Long.valueOf(CacheSample.LIMIT), p.limit);
    assertEquals(Long.valueOf(CacheSample.MAX_RELATIVE_EXPIRY), p.maxRelativeExpiry);
    assertEquals(1, p.nameAt);
    assertTrue(p.problems().isEmpty());
    CachePoolPayload empty = CachePoolPayload.decode(new byte[0]);
    assertNull(empty.name);
    assertNull(empty.mode);
    assertEquals(1, empty.problems().size());
    CachePoolPayload negative =
        CachePoolPayload.decode(
            CachePoolInfoProto.newBuilder().setPoolName("p").setMode(-1).build().toByteArray());
    assertEquals(Integer.valueOf(-1), negative.mode);
  }

  @Test
  public void directivesAsHadoopWritesThem() throws Exception {
    CacheDirectivePayload d =
        CacheDirectivePayload.decode(
            CacheSample.directive(7, CacheSample.LONG_PATH, "hot", (short) 3, -5));
    assertEquals(Long.valueOf(7), d.id);
    assertEquals(CacheSample.LONG_PATH, d.path);
    assertEquals(Integer.valueOf(3), d.replication);
    assertEquals("hot", d.pool);
    assertTrue(d.hasExpiration);
    assertEquals(Long.valueOf(-5), d.expiryMs);
    assertFalse(d.relative);
    assertTrue(d.problems().isEmpty());
    byte[] relative =
        CacheDirectiveInfoProto.parseFrom(CacheSample.directive(7, "/a", "hot", (short) 3, 0))
            .toBuilder()
            .setExpiration(expiration(CachePoolPayload.MAX_RELATIVE_EXPIRY_MS + 1, true))
            .build()
            .toByteArray();
    d = CacheDirectivePayload.decode(relative);
    assertTrue(d.relative);
    assertEquals(1, d.problems().size());
    assertTrue(
        d.problems().get(0).getMessage(), d.problems().get(0).getMessage().contains("above"));
  }

  /** Hand-made wire-format corner cases: the verdicts of protobuf's parser. */
  @Test
  public void wireFormatCornerCases() throws Exception {
    byte[] name = {0x0a, 1, 'p'};
    // an unknown group of field 9 with a varint, a fixed32, a nested group inside: skipped
    same(cat(name, b(9 << 3 | 3, 8, 1, 5, 1, 2, 3, 4, 10 << 3 | 3, 10 << 3 | 4, 9 << 3 | 4)));
    same(cat(name, b(9 << 3 | 3, 8 << 3 | 4))); // closed by another field's end-group tag
    same(cat(name, b(9 << 3 | 3, 8, 1))); // a group never closed
    same(cat(name, b(9 << 3 | 4))); // an end-group tag outside any group
    same(cat(name, b(9 << 3 | 6, 0))); // wire type 6
    same(cat(name, b(9 << 3 | 7, 0))); // wire type 7
    same(cat(b(0x00), name)); // field 0
    same(cat(b(0x02, 0), name)); // field 0, wire type 2
    same(cat(name, b(9 << 3 | 1, 1, 2, 3, 4, 5, 6, 7, 8))); // a fixed64
    same(cat(name, b(9 << 3 | 1, 1, 2, 3))); // a fixed64 cut short
    same(cat(name, b(9 << 3 | 5, 1, 2, 3))); // a fixed32 cut short
    byte[] tenBytes = {0x28, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1};
    same(cat(name, tenBytes)); // limit -1: ten bytes
    byte[] elevenBytes = {0x28, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1};
    same(cat(name, elevenBytes)); // eleven: malformed
    same(cat(b(0x0a, -1, -1, -1, -1, 0x0f), b('p'))); // a negative name length
    same(cat(b(0x0a, 5), b('p'))); // a name longer than the payload
    same(cat(name, b(0x20, -128, -128, -128, -128, -128, 0x01))); // mode 2^35: its low 32 bits
    same(cat(name, b(0x0a, 1, 'q'))); // the name twice: the last one
    same(cat(name, b(0x22, 1, 'x'))); // the mode as bytes: an unknown field
    same(cat(b(0x8a, 0x00, 1, 'p'))); // the name's tag as a 2-byte varint
    for (int depth : new int[] {63, 64, 65}) {
      byte[] open = new byte[depth];
      byte[] close = new byte[depth];
      Arrays.fill(open, (byte) (9 << 3 | 3));
      Arrays.fill(close, (byte) (9 << 3 | 4));
      same(cat(name, open, close)); // 64 nested groups parse, 65 do not
    }

    byte[] head =
        CacheDirectiveInfoProto.parseFrom(CacheSample.directive(3, "/a", "hot", (short) 1, 5))
            .toBuilder()
            .clearExpiration()
            .build()
            .toByteArray();
    sameDirective(cat(head, b(0x2a, 4, 0x08, 5, 0x10, 1))); // relative
    sameDirective(cat(head, b(0x2a, 2, 0x08, 5), b(0x2a, 2, 0x10, 1))); // merged from two
    sameDirective(cat(head, b(0x2a, 2, 0x08, 5))); // without isRelative
    sameDirective(cat(head, b(0x2a, 2, 0x10, 0))); // without millis
    sameDirective(cat(head, b(0x2a, 5, 0x08, 5, 0x10, 1, 0x0c))); // an end-group tag inside
    sameDirective(cat(head, b(0x2a, 7, 0x08, 5, 0x10, 1))); // longer than the payload
    sameDirective(cat(head, b(0x2a, 6, 0x08, 5, 0x10, 1, 0x1b, 0x1c))); // a group inside
    sameDirective(cat(head, b(0x2a, 5, 0x08, 5, 0x10, -128, 0x02))); // isRelative 256: true
    sameDirective(cat(head, b(0x2a, 8, 0x08, 5, 0x10, -128, -128, -128, -128, 0x10))); // 2^32
    byte[] groups = new byte[126];
    Arrays.fill(groups, 0, 63, (byte) (9 << 3 | 3));
    Arrays.fill(groups, 63, 126, (byte) (9 << 3 | 4));
    sameDirective(cat(head, b(0x2a, -126, 1), b(0x08, 5, 0x10, 1), groups)); // 1 + 63 deep
    byte[] deeper = new byte[128];
    Arrays.fill(deeper, 0, 64, (byte) (9 << 3 | 3));
    Arrays.fill(deeper, 64, 128, (byte) (9 << 3 | 4));
    sameDirective(cat(head, b(0x2a, -124, 1), b(0x08, 5, 0x10, 1), deeper)); // 1 + 64 deep
  }

  /** Random damage to real payloads: refused exactly when the parser refuses it. */
  @Test
  public void damagedPayloadsGetTheParsersVerdict() throws Exception {
    Random rnd = new Random(SEED);
    byte[][] pools = {
      CacheSample.pool("hot"),
      CachePoolInfoProto.newBuilder().setPoolName("p").setLimit(-3).build().toByteArray(),
      new byte[0]
    };
    byte[][] directives = {
      CacheSample.directive(1, "/user/alice/report.csv", "hot", (short) 2, 1800000000000L),
      CacheSample.directive(2, CacheSample.LONG_PATH, "hot", (short) 1, 5),
      CacheDirectiveInfoProto.parseFrom(CacheSample.directive(9, "/a", "p", (short) 7, 0))
          .toBuilder()
          .setExpiration(expiration(60000, true))
          .build()
          .toByteArray()
    };
    int refused = 0;
    for (int i = 0; i < MUTANTS; i++) {
      boolean pool = i % 2 == 0;
      byte[][] base = pool ? pools : directives;
      byte[] m = mutate(base[rnd.nextInt(base.length)], rnd);
      String what = "mutant " + i + " (-Dnvm.mutants.seed=" + SEED + "): " + hex(m);
      refused += pool ? samePool(m, what) : sameDirective(m, what);
    }
    System.out.println(
        MUTANTS + " damaged cache payloads (seed " + SEED + "): " + refused + " refused by both");
    assertTrue("the mutants reach both verdicts", refused > MUTANTS / 10);
    assertTrue("the mutants reach both verdicts", refused < MUTANTS * 9 / 10);
  }

  private static byte[] mutate(byte[] base, Random rnd) {
    byte[] b = base.clone();
    for (int c = 1 + rnd.nextInt(3); c > 0; c--) {
      switch (rnd.nextInt(6)) {
        case 0: // a flipped bit
          if (b.length > 0) {
            int at = rnd.nextInt(b.length);
            b[at] ^= (byte) (1 << rnd.nextInt(8));
          }
          break;
        case 1: // a random byte
          if (b.length > 0) {
            b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
          }
          break;
        case 2: // cut short
          b = Arrays.copyOf(b, rnd.nextInt(b.length + 1));
          break;
        case 3: // a byte inserted
          {
            int at = rnd.nextInt(b.length + 1);
            byte[] n = new byte[b.length + 1];
            System.arraycopy(b, 0, n, 0, at);
            n[at] = (byte) rnd.nextInt(256);
            System.arraycopy(b, at, n, at + 1, b.length - at);
            b = n;
          }
          break;
        case 4: // a byte removed
          if (b.length > 0) {
            int at = rnd.nextInt(b.length);
            byte[] n = new byte[b.length - 1];
            System.arraycopy(b, 0, n, 0, at);
            System.arraycopy(b, at + 1, n, at, n.length - at);
            b = n;
          }
          break;
        default: // a small tag (field 0..15, any wire type) appended
          b = cat(b, b(rnd.nextInt(128), rnd.nextInt(256), rnd.nextInt(256)));
      }
    }
    return b;
  }

  private static void same(byte[] pool) throws Exception {
    samePool(pool, hex(pool));
  }

  private static void sameDirective(byte[] d) throws Exception {
    sameDirective(d, hex(d));
  }

  /** 1 if both refuse {@code b}, 0 if both parse it to the same pool; fails otherwise. */
  private static int samePool(byte[] b, String what) throws Exception {
    CachePoolInfoProto proto;
    try {
      proto = CachePoolInfoProto.parseFrom(b);
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      try {
        CachePoolPayload.decode(b);
        fail(what + ": protobuf refuses it (" + e.getMessage() + "), the tools' reader does not");
      } catch (ProtoInput.Malformed expected) {
        assertTrue(what, expected.at >= 0 && expected.at <= b.length);
      }
      return 1;
    }
    CachePoolPayload p;
    try {
      p = CachePoolPayload.decode(b);
    } catch (ProtoInput.Malformed e) {
      throw new AssertionError(what + ": protobuf parses it, the tools' reader refuses: " + e, e);
    }
    assertEquals(what, proto.hasPoolName() ? proto.getPoolName() : null, p.name);
    assertEquals(what, proto.hasOwnerName() ? proto.getOwnerName() : null, p.owner);
    assertEquals(what, proto.hasGroupName() ? proto.getGroupName() : null, p.group);
    assertEquals(what, proto.hasMode() ? proto.getMode() : null, p.mode);
    assertEquals(what, proto.hasLimit() ? proto.getLimit() : null, p.limit);
    assertEquals(
        what,
        proto.hasMaxRelativeExpiry() ? proto.getMaxRelativeExpiry() : null,
        p.maxRelativeExpiry);
    boolean refused;
    try {
      CachePoolInfo.validate(PBHelper.convert(proto));
      refused = false;
    } catch (java.io.IOException e) {
      refused = true;
    }
    assertEquals(what + ": " + p.problems(), refused, !p.problems().isEmpty());
    return 0;
  }

  /** 1 if both refuse {@code b}, 0 if both parse it to the same directive; fails otherwise. */
  private static int sameDirective(byte[] b, String what) throws Exception {
    CacheDirectiveInfoProto proto;
    try {
      proto = CacheDirectiveInfoProto.parseFrom(b);
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      try {
        CacheDirectivePayload.decode(b);
        fail(what + ": protobuf refuses it (" + e.getMessage() + "), the tools' reader does not");
      } catch (ProtoInput.Malformed expected) {
        assertTrue(what, expected.at >= 0 && expected.at <= b.length);
      }
      return 1;
    }
    CacheDirectivePayload d;
    try {
      d = CacheDirectivePayload.decode(b);
    } catch (ProtoInput.Malformed e) {
      throw new AssertionError(what + ": protobuf parses it, the tools' reader refuses: " + e, e);
    }
    assertEquals(what, proto.hasId() ? proto.getId() : null, d.id);
    assertEquals(what, proto.hasPath() ? proto.getPath() : null, d.path);
    assertEquals(what, proto.hasReplication() ? proto.getReplication() : null, d.replication);
    assertEquals(what, proto.hasPool() ? proto.getPool() : null, d.pool);
    assertEquals(what, proto.hasExpiration(), d.hasExpiration);
    if (proto.hasExpiration()) {
      assertEquals(what, proto.getExpiration().getMillis(), (long) d.expiryMs);
      assertEquals(what, proto.getExpiration().getIsRelative(), d.relative);
    }
    if (d.path == null || d.path.indexOf(':') < 0) { // a colon before a '/': a URI scheme
      boolean refused = !proto.hasPool();
      try {
        new CacheDirective(PBHelper.convert(proto));
      } catch (RuntimeException e) { // what the restore would throw
        refused = true;
      }
      assertEquals(what + ": " + d.problems(), refused, !d.problems().isEmpty());
    }
    return 0;
  }

  private static CacheDirectiveInfoExpirationProto expiration(long ms, boolean relative) {
    return CacheDirectiveInfoExpirationProto.newBuilder()
        .setMillis(ms)
        .setIsRelative(relative)
        .build();
  }

  private static byte[] b(int... v) {
    byte[] out = new byte[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = (byte) v[i];
    }
    return out;
  }

  private static byte[] cat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.write(p, 0, p.length);
    }
    return out.toByteArray();
  }

  private static String hex(byte[] b) {
    StringBuilder s = new StringBuilder();
    for (byte x : b) {
      s.append(String.format("%02x", x & 0xff));
    }
    return s.toString();
  }
}
