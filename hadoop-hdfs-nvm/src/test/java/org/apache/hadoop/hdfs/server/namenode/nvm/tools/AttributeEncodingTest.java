package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.junit.Assert.*;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.server.namenode.nvm.AttributeCodec;
import org.junit.Test;

/**
 * The tools' reader of the attribute encoding ({@link AttributeEncoding}, no Hadoop class) and the
 * store's ({@code AttributeCodec.decode}, which the NameNode uses) agree on every encoding: the
 * same ACL entries and xattrs for one the codec writes, and a refusal at the same byte for every
 * damaged one (each prefix, each byte replaced, bytes appended, random bytes).
 */
public class AttributeEncodingTest {
  private static final AclEntryScope[] SCOPES = {AclEntryScope.ACCESS, AclEntryScope.DEFAULT};
  private static final AclEntryType[] TYPES = {
    AclEntryType.USER, AclEntryType.GROUP, AclEntryType.MASK, AclEntryType.OTHER
  };
  private static final XAttr.NameSpace[] NAMESPACES = {
    XAttr.NameSpace.USER,
    XAttr.NameSpace.TRUSTED,
    XAttr.NameSpace.SECURITY,
    XAttr.NameSpace.SYSTEM,
    XAttr.NameSpace.RAW
  };
  private static final Pattern AT = Pattern.compile("\\(at byte (\\d+)\\)$");

  /** Encodings AttributeCodec writes: every scope, type, permission and namespace, and more. */
  private static List<byte[]> samples() {
    List<byte[]> out = new ArrayList<byte[]>();
    List<AclEntry> every = new ArrayList<AclEntry>();
    for (AclEntryScope s : SCOPES) {
      for (AclEntryType t : TYPES) {
        for (FsAction p : FsAction.values()) {
          every.add(
              AttributeSample.acl(s, t, t == AclEntryType.USER ? "u" + p.ordinal() : null, p));
        }
      }
    }
    out.add(AttributeCodec.encode(every, null));
    List<XAttr> xattrs = new ArrayList<XAttr>();
    for (XAttr.NameSpace ns : NAMESPACES) {
      xattrs.add(AttributeSample.xattr(ns, "a." + ns, new byte[] {1, 2, 3}));
    }
    xattrs.add(AttributeSample.xattr(XAttr.NameSpace.USER, "null", null));
    xattrs.add(AttributeSample.xattr(XAttr.NameSpace.USER, "empty", new byte[0]));
    xattrs.add(AttributeSample.xattr(XAttr.NameSpace.USER, "\u00e9t\u00e9 \u2603", new byte[] {0}));
    out.add(AttributeCodec.encode(null, xattrs));
    out.add(AttributeCodec.encode(AttributeSample.ALICE_ACL, AttributeSample.ALICE_XATTRS));
    out.add(AttributeCodec.encode(null, AttributeSample.SMALL_XATTRS));
    byte[] big = new byte[16500]; // a value length of three varint bytes
    new Random(7).nextBytes(big);
    out.add(
        AttributeCodec.encode(
            AttributeSample.ALICE_ACL.subList(0, 1),
            Arrays.asList(AttributeSample.xattr(XAttr.NameSpace.USER, "big", big))));
    return out;
  }

  /** What a decoder found, in one string for both: "scope/type/perm/name;..." and xattrs. */
  private static String of(AttributeCodec.Attributes a) {
    StringBuilder b = new StringBuilder();
    for (AclEntry e : a.acl) {
      b.append(Arrays.asList(SCOPES).indexOf(e.getScope()))
          .append('/')
          .append(Arrays.asList(TYPES).indexOf(e.getType()))
          .append('/')
          .append(e.getPermission().ordinal())
          .append('/')
          .append(e.getName())
          .append(';');
    }
    b.append('|');
    for (XAttr x : a.xattrs) {
      b.append(Arrays.asList(NAMESPACES).indexOf(x.getNameSpace()))
          .append('/')
          .append(x.getName())
          .append('/')
          .append(value(x.getValue()))
          .append(';');
    }
    return b.toString();
  }

  private static String of(AttributeEncoding a) {
    StringBuilder b = new StringBuilder();
    for (AttributeEncoding.AclEntry e : a.acl) {
      b.append(e.scope)
          .append('/')
          .append(e.type)
          .append('/')
          .append(e.permission)
          .append('/')
          .append(e.name)
          .append(';');
    }
    b.append('|');
    for (AttributeEncoding.XAttr x : a.xattrs) {
      b.append(x.namespace)
          .append('/')
          .append(x.name)
          .append('/')
          .append(value(x.value))
          .append(';');
    }
    return b.toString();
  }

  /**
   * A value as its length and hash: cheap for the 16,500-byte sample decoded thousands of times.
   */
  private static String value(byte[] v) {
    return v == null ? "null" : v.length + "#" + Arrays.hashCode(v);
  }

  /** Counts of what {@link #agree} saw. */
  private int accepted;

  private int refused;

  /** Both decoders accept {@code b} with the same result, or both refuse it at the same byte. */
  private void agree(byte[] b, String what) {
    String codec = null;
    int codecAt = -1;
    try {
      codec = of(AttributeCodec.decode(b));
    } catch (IllegalArgumentException e) {
      Matcher m = AT.matcher(e.getMessage());
      assertTrue(e.getMessage(), m.find());
      codecAt = Integer.parseInt(m.group(1));
    }
    String tools = null;
    int toolsAt = -1;
    try {
      tools = of(AttributeEncoding.decode(b));
    } catch (AttributeEncoding.MalformedException e) {
      toolsAt = e.at;
      assertTrue(e.getMessage(), e.getMessage().endsWith("(at byte " + e.at + ")"));
    }
    if (!String.valueOf(codec).equals(String.valueOf(tools)) || codecAt != toolsAt) {
      fail(
          what
              + ": AttributeCodec "
              + (codec != null ? codec : "refused at byte " + codecAt)
              + ", AttributeEncoding "
              + (tools != null ? tools : "refused at byte " + toolsAt)
              + ": "
              + Arrays.toString(b));
    }
    accepted += codec != null ? 1 : 0;
    refused += codec == null ? 1 : 0;
  }

  @Test
  public void encodingsTheCodecWritesDecodeAlike() {
    for (byte[] s : samples()) {
      agree(s, "sample");
    }
    assertEquals(samples().size(), accepted);
  }

  @Test
  public void theSampleOfTheToolsTestsDecodesAsWritten() throws Exception {
    AttributeEncoding a =
        AttributeEncoding.decode(
            AttributeCodec.encode(AttributeSample.ALICE_ACL, AttributeSample.ALICE_XATTRS));
    assertEquals(6, a.acl.size());
    AttributeEncoding.AclEntry bob = a.acl.get(0);
    assertEquals(0, bob.scope);
    assertEquals(0, bob.type);
    assertEquals("bob", bob.name);
    assertEquals("r-x", bob.permissionSymbol());
    assertNull(a.acl.get(1).name);
    assertEquals(1, a.acl.get(5).scope);
    assertEquals(3, a.acl.get(5).type);
    assertEquals("---", a.acl.get(5).permissionSymbol());
    assertEquals(1, a.xattrs.get(1).namespace);
    assertEquals("big", a.xattrs.get(1).name);
    assertArrayEquals(AttributeSample.BIG_VALUE, a.xattrs.get(1).value);
  }

  @Test
  public void damagedEncodingsAreRefusedAtTheSameByte() {
    for (byte[] s : samples()) {
      for (int len = 0; len < s.length; len++) {
        if (len < 700 || len > s.length - 20) { // the long value's middle is all alike
          agree(Arrays.copyOf(s, len), "a prefix of " + len + " bytes");
        }
      }
      for (int i = 0; i < Math.min(s.length, 700); i++) {
        for (int v : new int[] {0x00, 0x01, 0x7f, 0x80, 0xff, 0x40, 0xa0, s[i] ^ 0x04}) {
          byte[] d = s.clone();
          d[i] = (byte) v;
          agree(d, "byte " + i + " = " + v);
        }
      }
      byte[] longer = Arrays.copyOf(s, s.length + 1);
      agree(longer, "a byte appended");
    }
    byte[][] handMade = {
      {0, 0}, // neither ACL entries nor xattrs
      {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0}, // a 6-byte varint
      {1, 2 << 5, 0, 0}, // ACL scope 2
      {0, 1, 5, 1, 'a', 0}, // xattr namespace 5
      {0, 1, 0, 1, 'a', 3, 'x'}, // a value past the end
      {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f}, // 2^32 - 1 ACL entries
    };
    for (byte[] h : handMade) {
      agree(h, "hand-made");
    }
    Random rnd = new Random(42);
    for (int i = 0; i < 5000; i++) {
      byte[] b = new byte[1 + rnd.nextInt(24)];
      rnd.nextBytes(b);
      if (rnd.nextBoolean()) {
        b[0] = (byte) rnd.nextInt(3); // small counts, so that some decode past the first byte
      }
      agree(b, "random");
    }
    assertTrue("some damaged encodings still decode: " + accepted, accepted > 100);
    assertTrue("most are refused: " + refused, refused > 5000);
  }

  @Test
  public void namesAreDecodedAsUtf8() throws Exception {
    String name = "\u00e9t\u00e9";
    byte[] enc =
        AttributeCodec.encode(
            null,
            Arrays.asList(
                AttributeSample.xattr(
                    XAttr.NameSpace.USER, name, name.getBytes(StandardCharsets.UTF_8))));
    assertEquals(name, AttributeEncoding.decode(enc).xattrs.get(0).name);
  }
}
