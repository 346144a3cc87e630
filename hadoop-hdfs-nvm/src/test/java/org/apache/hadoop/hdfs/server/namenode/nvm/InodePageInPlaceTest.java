package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.junit.Assert.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;
import org.apache.hadoop.fs.permission.FsAction;
import org.junit.Rule;
import org.junit.Test;

/**
 * Inode pages encoded in place into the batch ({@link MutationBatch#freshInPlace}, {@link
 * PageCodec#inode}) are byte for byte the pages the encoder before it made ({@link
 * InodePageReference}), for every kind of inode and every field, also when the batch's reused
 * buffer held other bytes before.
 */
public class InodePageInPlaceTest {
  @Rule public ShmDir shm = new ShmDir();

  private static String repeat(char c, int n) {
    char[] a = new char[n];
    Arrays.fill(a, c);
    return new String(a);
  }

  private static byte[] attributes() {
    List<AclEntry> acl =
        Arrays.asList(
            new AclEntry.Builder()
                .setScope(AclEntryScope.ACCESS)
                .setType(AclEntryType.USER)
                .setName("bob")
                .setPermission(FsAction.READ_EXECUTE)
                .build());
    List<XAttr> xattrs =
        Arrays.asList(
            new XAttr.Builder()
                .setNameSpace(XAttr.NameSpace.USER)
                .setName("big")
                .setValue(new byte[400])
                .build());
    return AttributeCodec.encode(acl, xattrs);
  }

  /** One inode of every kind and with every optional field, names inline and chained. */
  static List<InodeAttrs> sample() {
    List<InodeAttrs> out = new ArrayList<>();
    out.add(InodeAttrs.file("f").times(1, 2).mode(0644).owner("u", "g"));
    out.add(
        InodeAttrs.file(repeat('n', NAME_INLINE_MAX))
            .times(Long.MAX_VALUE, 7)
            .mode(01777)
            .owner("user", "group")
            .preferredBlockSize(PageCodec.BLOCK_SIZE_MAX)
            .replication(PageCodec.REPLICATION_MAX)
            .storagePolicy(PageCodec.POLICY_MAX)
            .underConstruction("DFSClient_1", "127.0.0.1"));
    out.add(
        InodeAttrs.file(repeat('x', NAME_INLINE_MAX + 300))
            .times(3, 3)
            .mode(0600)
            .owner("a", "b")
            .preferredBlockSize(128L << 20)
            .replication(3)
            .attributes(attributes()));
    out.add(
        InodeAttrs.directory("d")
            .times(5, 6)
            .mode(0755)
            .owner("u", "g")
            .quota(1000, 1L << 40)
            .typeQuota(0, 11)
            .typeQuota(DI_TYPE_QUOTA_COUNT - 1, 22)
            .storagePolicy(7));
    out.add(
        InodeAttrs.directory("\u00e9t\u00e9-" + repeat('d', 60))
            .times(8, 9)
            .mode(0700)
            .owner("u", "g")
            .attributes(attributes()));
    out.add(
        InodeAttrs.symlink("/a/b".getBytes(StandardCharsets.UTF_8))
            .name("s")
            .times(10, 11)
            .mode(0777)
            .owner("u", "g"));
    out.add(
        InodeAttrs.symlink(("/" + repeat('t', SYMLINK_TARGET_INLINE_MAX + 500)).getBytes())
            .name(repeat('l', NAME_INLINE_MAX + 1))
            .times(12, 13)
            .mode(0777)
            .owner("u", "g"));
    return out;
  }

  @Test
  public void inPlaceImagesMatchTheReferenceInADirtyBuffer() {
    Random r = new Random(27);
    MutationBatch b = new MutationBatch(64);
    byte[] junk = new byte[3 * PAGE_SIZE];
    Arrays.fill(junk, (byte) 0xA5);
    for (InodeAttrs a : sample()) {
      // the buffer is reused: whatever an earlier batch left there must not leak into the image
      b.clear();
      b.putBytes(DATA_OFFSET, junk, Field.NAME);
      b.putBytes(DATA_OFFSET, junk, Field.NAME);
      b.clear();
      b.putLong(SB_LAST_INODE_ID, 42, Field.COUNTER);
      long[] w = new long[8];
      for (int i = 0; i < w.length; i++) {
        w[i] = r.nextLong();
      }
      long target = DATA_OFFSET + 5L * PAGE_SIZE;
      int at = b.freshInPlace(target, PAGE_SIZE, Field.PAGE);
      ByteBuffer view = b.pageView();
      int position = view.position();
      PageCodec.inode(view, at, a, w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]);
      assertEquals("the view's position is kept", position, view.position());
      byte[] got = new byte[PAGE_SIZE];
      ByteBuffer d = view.duplicate().order(ByteOrder.LITTLE_ENDIAN); // duplicate() resets it
      d.position(at);
      d.get(got);
      byte[] want = InodePageReference.inode(a, w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]);
      assertArrayEquals(new String(a.name, StandardCharsets.UTF_8), want, got);
      // the entry header in front of it, and the entry before it, are the batch format's
      assertEquals(2, b.entryCount());
      assertEquals(MutationBatch.HEADER + 32 + MutationBatch.ENTRY_HEADER + PAGE_SIZE, b.length());
      assertEquals(MutationBatch.Op.FRESH.code, d.getInt(at - MutationBatch.ENTRY_HEADER));
      assertEquals(target, d.getLong(at - MutationBatch.ENTRY_HEADER + 8));
      assertEquals(PAGE_SIZE, d.getInt(at - MutationBatch.ENTRY_HEADER + 16));
      assertEquals(42, d.getLong(MutationBatch.HEADER + MutationBatch.ENTRY_HEADER));
    }
  }

  @Test
  public void theViewFollowsTheBufferWhenTheBatchGrows() {
    MutationBatch b = new MutationBatch(64);
    InodeAttrs a = InodeAttrs.file("grow").times(1, 1).mode(0644);
    int at = 0;
    for (int i = 0; i < 40; i++) {
      at = b.freshInPlace(DATA_OFFSET + (long) i * PAGE_SIZE, PAGE_SIZE, Field.PAGE);
      PageCodec.inode(b.pageView(), at, a, i + 1, 0, 0, 0, 0, 0, 0, 0);
    }
    assertEquals(MutationBatch.HEADER + 40 * (MutationBatch.ENTRY_HEADER + PAGE_SIZE), b.length());
    ByteBuffer d = b.pageView().duplicate();
    for (int i = 0; i < 40; i++) {
      int base = MutationBatch.HEADER + i * (MutationBatch.ENTRY_HEADER + PAGE_SIZE);
      byte[] got = new byte[PAGE_SIZE];
      d.position(base + MutationBatch.ENTRY_HEADER);
      d.get(got);
      assertArrayEquals(InodePageReference.inode(a, i + 1, 0, 0, 0, 0, 0, 0, 0), got);
    }
  }

  /** Through the store: the committed page is the reference image (but for its state word). */
  @Test
  public void committedPagesMatchTheReference() throws Exception {
    try (InodeStore s = shm.createStore("p", ShmDir.MEDIUM)) {
      long root = s.rootPage();
      long rootId = s.inode(root).id();
      for (InodeAttrs a : sample()) {
        long page = StoreOps.createInode(s, root, a);
        InodeView v = s.inode(page);
        assertTrue(v.isLive());
        byte[] got = s.region().getBytes(page, PAGE_SIZE);
        byte[] want =
            InodePageReference.inode(
                a,
                v.id(),
                root,
                rootId,
                PageCodec.perm(a.mode, s.strings().lookup(a.group), s.strings().lookup(a.owner)),
                v.isFile() ? v.ucWord() : 0,
                v.firstNameExt(),
                v.attrsWord(),
                a.symlinkTarget == null ? 0 : s.region().getLong(page + SL_TARGET_EXT));
        assertArrayEquals(
            new String(a.name, StandardCharsets.UTF_8),
            Arrays.copyOfRange(want, 8, PAGE_SIZE),
            Arrays.copyOfRange(got, 8, PAGE_SIZE));
        assertEquals(a.name.length > NAME_INLINE_MAX, v.firstNameExt() != 0);
        assertEquals(a.attributes.length > 0, v.attrsWord() != 0);
        if (a.clientName != null) {
          assertEquals(a.clientName, s.clientName(page));
        }
      }
    }
  }
}
