package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code make store-demo}: builds a small namespace in an emulated region, renames through the redo
 * log, deletes a subtree, simulates a crash in the middle of a rename, recovers both crash images,
 * and finally reopens the region and shows that the listing is unchanged. Prints what it does so a
 * reader can follow along. Every change is one {@link Txn}, staged as the NameNode's write-through
 * stages the same operation.
 *
 * <p>Usage: StoreDemo &lt;work dir (tmpfs)&gt;
 */
public final class StoreDemo {
  private static final long REGION_SIZE = 64L << 20;

  private final File dir;
  private final List<Long> live =
      new ArrayList<Long>(); // inode pages in creation (parent-first) order
  private long clock = 1_700_000_000_000L;

  private StoreDemo(File dir) {
    this.dir = dir;
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: StoreDemo <work dir on tmpfs>");
      System.exit(2);
    }
    new StoreDemo(new File(args[0])).run();
  }

  private long tick() {
    return clock += 1000;
  }

  private interface Staging {
    void stage(Txn t) throws NvmException;
  }

  /** One operation: staged, then applied as one batch (one native call). */
  private static void apply(InodeStore s, Staging op) throws NvmException {
    try (Txn t = s.begin()) {
      op.stage(t);
      t.commit();
    }
  }

  /** A new inode and its parent's mtime, as a create or mkdir persists them. */
  private long create(InodeStore s, long parent, InodeAttrs a) throws NvmException {
    long time = tick();
    long[] page = new long[1];
    apply(
        s,
        t -> {
          page[0] = t.create(parent, a.times(time, time));
          t.setMtime(parent, time);
        });
    live.add(page[0]);
    return page[0];
  }

  /** A rename to another directory: the new name and parent, both parents' mtimes. */
  private void rename(InodeStore s, long page, long newParent, String newName) throws NvmException {
    long time = tick();
    long oldParent = s.inode(page).parentPage();
    apply(
        s,
        t -> {
          t.move(page, newParent, newName.getBytes(StandardCharsets.UTF_8));
          t.setMtime(newParent, time);
          t.setMtime(oldParent, time);
        });
  }

  private void run() throws Exception {
    if (!dir.isDirectory() && !dir.mkdirs()) {
      throw new IOException("cannot create " + dir);
    }
    File regionFile = new File(dir, "demo.region");
    Files.deleteIfExists(regionFile.toPath());
    say("NVM namespace store demo (%s)", NvmNative.versionString());

    long alice, data, logs, archive, victim;
    List<String> before;
    try (InodeStore s =
        InodeStore.open(
            Region.create(
                regionFile,
                REGION_SIZE,
                new RegionIdentity(4242, "CID-demo", "BP-demo"),
                PersistMode.EMULATED))) {
      Region r = s.region();
      say(
          "1. created %s: %d MiB, %d pages of %d bytes, persistence '%s' (pmem_is_pmem=%s)",
          regionFile,
          r.size() >> 20,
          r.pageCount(),
          RegionLayout.PAGE_SIZE,
          r.persistMode().configName(),
          r.isPmem());
      live.add(s.format(tick(), 0755, "hdfs", "supergroup"));

      long barriers0 = r.barrierCount(), calls0 = r.nativeWriteCalls();
      long user =
          create(
              s, s.rootPage(), InodeAttrs.directory("user").mode(0755).owner("hdfs", "supergroup"));
      alice = create(s, user, InodeAttrs.directory("alice").mode(0750).owner("alice", "staff"));
      data = create(s, alice, InodeAttrs.directory("data").mode(0750).owner("alice", "staff"));
      logs = create(s, alice, InodeAttrs.directory("logs").mode(0750).owner("alice", "staff"));
      archive =
          create(s, alice, InodeAttrs.directory("archive").mode(0700).owner("alice", "staff"));
      apply(s, t -> t.setQuota(alice, 10_000, 1L << 40));
      long blockId = 1_073_741_825L;
      int mutations = 6;
      for (int i = 0; i < 200; i++) {
        long f =
            create(
                s,
                i % 4 == 0 ? logs : data,
                InodeAttrs.file(String.format("part-%05d", i))
                    .mode(0640)
                    .owner("alice", "staff")
                    .replication(3)
                    .preferredBlockSize(128L << 20));
        mutations++;
        // addBlock as the NameNode persists it: the whole block list, the previous block now full
        long[] blocks = new long[3 * (1 + i % 6)];
        for (int b = 0; b <= i % 6; b++) {
          blocks[3 * b] = blockId++;
          blocks[3 * b + 2] = 1001;
          if (b > 0) {
            blocks[3 * (b - 1) + 1] = 128L << 20;
          }
          int n = b + 1;
          apply(s, t -> t.setBlocks(f, blocks, n));
          mutations++;
        }
      }
      create(
          s,
          data,
          InodeAttrs.file("a-file-name-that-is-longer-than-the-forty-eight-inline-bytes.parquet")
              .mode(0644)
              .owner("alice", "staff")
              .replication(2)
              .preferredBlockSize(64L << 20));
      long open =
          create(
              s,
              data,
              InodeAttrs.file("still-writing.log")
                  .mode(0644)
                  .owner("alice", "staff")
                  .replication(3)
                  .preferredBlockSize(128L << 20)
                  .underConstruction("DFSClient_NONMAPREDUCE_42_1", "10.0.0.7"));
      long[] openBlock = {blockId++, 0, 1001};
      apply(s, t -> t.setBlocks(open, openBlock, 1));
      mutations += 3;
      say(
          "2. built /user/alice/{data,logs,archive}: %d inodes, %d pages in use",
          live.size(), r.usage().pagesUsed());
      say(
          "   %d mutations cost %d native write calls (1 per mutation + page-pool refills) and %d persist barriers",
          mutations, r.nativeWriteCalls() - calls0, r.barrierCount() - barriers0);

      victim = findChild(s, data, "part-00007");
      long b0 = r.barrierCount();
      rename(s, victim, archive, "part-00007-moved-to-the-archive-with-a-name-over-48-bytes");
      say(
          "3. rename /user/alice/data/part-00007 -> /user/alice/archive/part-00007-moved-...: one redo record,"
              + " %d persist barriers (the new name's extension pages, then the record)",
          r.barrierCount() - b0);

      List<Long> subtree = new ArrayList<Long>();
      for (long p : live) {
        if (p != logs && s.inode(p).parentPage() == logs) {
          subtree.add(p);
        }
      }
      long used = r.usage().pagesUsed();
      b0 = r.barrierCount();
      long time = tick();
      apply(
          s,
          t -> {
            t.setMtime(alice, time);
            t.remove(logs, toArray(subtree));
          });
      live.remove(logs);
      live.removeAll(subtree);
      say(
          "4. delete -r /user/alice/logs (%d inodes): one store invalidates the subtree root, %d pages freed,"
              + " %d barriers",
          subtree.size() + 1, used - r.usage().pagesUsed(), r.barrierCount() - b0);
      before = NamespaceListing.list(s, toArray(live));
    }

    crashDemo(regionFile, data, archive);

    say(
        "6. reopen %s (as after a restart): the recovery scan rebuilds the namespace",
        regionFile.getName());
    try (InodeStore s = InodeStore.open(Region.open(regionFile, PersistMode.EMULATED))) {
      RecoveryReport rep = s.region().recovery();
      say(
          "   scanned %d pages in %.2f ms: %d live inodes, %d strings, log record applied: %s",
          rep.pagesScanned(),
          rep.elapsedNanos() / 1e6,
          rep.inodesLive(),
          rep.stringsLive(),
          rep.undoRolledBack());
      List<String> after = NamespaceListing.list(s, s.region().recoveredInodes());
      say(
          "   listing before restart: %d inodes, crc32 %08x",
          before.size(), NamespaceListing.checksum(before));
      say(
          "   listing after restart:  %d inodes, crc32 %08x  -> %s",
          after.size(),
          NamespaceListing.checksum(after),
          before.equals(after) ? "IDENTICAL" : "DIFFERENT");
      say("   first lines of the recovered namespace:");
      for (int i = 0; i < Math.min(12, after.size()); i++) {
        say("     %s", after.get(i));
      }
      if (!before.equals(after)) {
        throw new IllegalStateException("the namespace changed across the restart");
      }
    }
    say("done.");
  }

  /** Copies the region, crashes a rename half way, and recovers both crash images. */
  private void crashDemo(File regionFile, long data, long archive) throws Exception {
    File work = new File(dir, "crash.region");
    Files.copy(regionFile.toPath(), work.toPath(), StandardCopyOption.REPLACE_EXISTING);
    String prefix = new File(dir, "crash-at-1").getPath();
    long victim;
    String oldName = "part-00011";
    try (InodeStore s = InodeStore.open(Region.open(work, PersistMode.EMULATED))) {
      victim = findChild(s, data, oldName);
      s.region().debugCrashAt(1, prefix);
      try {
        rename(s, victim, archive, "renamed-while-the-power-failed-with-a-long-name");
        throw new IllegalStateException("the crash hook did not fire");
      } catch (NvmException e) {
        say(
            "5. crash in the middle of a rename: the test hook simulated a power failure at persist barrier 1 of 2"
                + " (the new name's extension pages written, the redo record not yet): %s",
            e.code());
      }
    }
    for (String image : new String[] {".present", ".lost"}) {
      File f = new File(prefix + image);
      try (InodeStore s = InodeStore.open(Region.open(f, PersistMode.EMULATED))) {
        RecoveryReport rep = s.region().recovery();
        InodeView v = s.inode(victim);
        String where = v.parentPage() == data ? "/user/alice/data" : "/user/alice/archive";
        say(
            "   image %-8s (%s): recovery %s; the file is %s/%s",
            image,
            image.equals(".present")
                ? "every store reached media"
                : "stores after the last barrier lost",
            rep.undoRolledBack()
                ? "replayed a log record (" + rep.undoEntries() + " entries)"
                : "found no log record to replay",
            where,
            v.name());
        if (v.parentPage() != data || !v.name().equals(oldName)) {
          throw new IllegalStateException(
              "crash image " + f + " did not recover to the state before the rename");
        }
      }
      Files.delete(f.toPath());
    }
    Files.delete(work.toPath());
  }

  private long findChild(InodeStore s, long parent, String name) {
    for (long p : live) {
      InodeView v = s.inode(p);
      if (v.parentPage() == parent && v.name().equals(name)) {
        return p;
      }
    }
    throw new IllegalStateException("no child " + name);
  }

  private static long[] toArray(List<Long> l) {
    long[] a = new long[l.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = l.get(i);
    }
    return a;
  }

  private static void say(String fmt, Object... args) {
    System.out.println(String.format(fmt, args));
  }
}
