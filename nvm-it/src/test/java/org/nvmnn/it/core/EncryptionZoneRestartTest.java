package org.nvmnn.it.core;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.key.KeyProvider;
import org.apache.hadoop.crypto.key.KeyProviderFactory;
import org.apache.hadoop.crypto.key.kms.KMSClientProvider;
import org.apache.hadoop.crypto.key.kms.server.MiniKMS;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileEncryptionInfo;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.EncryptionZone;
import org.apache.hadoop.hdfs.server.namenode.NvmTestAccess;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.After;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Encryption zones with a real KMS (hadoop-kms 2.7.3's MiniKMS, in this JVM) survive NameNode
 * restarts as the stock NameNode serves them: the zones (listEncryptionZones, getEZForPath), each
 * file's FileEncryptionInfo (the same encrypted data key, IV and key version after the restart) and
 * so the decrypted content; the raw bytes under /.reserved/raw stay ciphertext; the rename rules
 * across zones give the stock answers; a zone created after a restart persists too; a zone on the
 * root directory comes back. With an inode cache of 4 files the files are cold when they are read
 * back (the NVM run checks that they were materialized from their pages). The same calls against
 * the stock NameNode give the reference; encrypted data keys are random per run, so each mode's
 * encryption info is compared with itself across its restarts and the modes by everything else.
 * (Hadoop 2.7.3's client crypto streams need the harness's CryptoStreamsAgent on JDK 17.)
 */
public class EncryptionZoneRestartTest {
  private static final int COLD_FILES = 20;
  private static final int BLOCK = NamespaceOpsTestBase.BLOCK;
  private static MiniKMS kms;
  private static String kmsUri;
  private MiniDFSCluster cluster;

  @BeforeClass
  public static void startKms() throws Exception {
    File dir = new File(NamespaceOpsTestBase.baseDir(EncryptionZoneRestartTest.class), "kms");
    FileUtil.fullyDelete(dir);
    assertTrue(dir.mkdirs());
    kms = new MiniKMS.Builder().setKmsConfDir(dir).build();
    kms.start();
    kmsUri =
        KMSClientProvider.SCHEME_NAME
            + "://"
            + kms.getKMSUrl().toExternalForm().replace("://", "@");
    Configuration conf = new Configuration();
    KeyProvider kp = KeyProviderFactory.get(new URI(kmsUri), conf);
    for (String key : new String[] {"k1", "k2", "k3"}) {
      kp.createKey(key, KeyProvider.options(conf));
    }
    kp.flush();
  }

  @AfterClass
  public static void stopKms() {
    if (kms != null) {
      kms.stop();
    }
  }

  @After
  public void tearDown() {
    if (cluster != null) {
      cluster.shutdown();
      cluster = null;
    }
  }

  private MiniDFSCluster start(String name, boolean nvm) throws IOException {
    return MigrationTestSupport.cluster(
        getClass(),
        name + (nvm ? "-n" : "-s"),
        nvm,
        1,
        NvmConfigKeys.NVM_CACHE_INODES_KEY + "=4",
        DFSConfigKeys.DFS_ENCRYPTION_KEY_PROVIDER_URI + "=" + kmsUri,
        DFSConfigKeys.DFS_REPLICATION_KEY + "=1",
        // listEncryptionZones in batches of 2, so the listing's continuation is exercised
        DFSConfigKeys.DFS_NAMENODE_LIST_ENCRYPTION_ZONES_NUM_RESPONSES + "=2");
  }

  private DistributedFileSystem restart() throws IOException {
    cluster.restartNameNode(0);
    cluster.waitActive();
    return cluster.getFileSystem();
  }

  /** What each file holds: written once, read back after every restart. */
  private final Map<String, byte[]> content = new TreeMap<>();

  private static byte[] bytes(int n, int seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private void write(DistributedFileSystem fs, String p, byte[] data) throws IOException {
    try (FSDataOutputStream out = fs.create(new Path(p), true, 4096, (short) 1, BLOCK)) {
      out.write(data);
    }
    content.put(p, data);
  }

  private static byte[] read(DistributedFileSystem fs, String p) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (InputStream in = fs.open(new Path(p))) {
      byte[] buf = new byte[65536];
      for (int n; (n = in.read(buf)) > 0; ) {
        b.write(buf, 0, n);
      }
    }
    return b.toByteArray();
  }

  /** An answer, or the exception's class and first line (unwrapped as a client sees it). */
  private interface Call {
    Object run() throws Exception;
  }

  private static String answer(Call c) {
    try {
      return String.valueOf(c.run());
    } catch (Exception e) {
      Throwable t =
          e instanceof RemoteException ? ((RemoteException) e).unwrapRemoteException() : e;
      String m = String.valueOf(t.getMessage()).split("\n")[0];
      return t.getClass().getSimpleName() + ": " + m;
    }
  }

  private static String zones(DistributedFileSystem fs) throws IOException {
    List<String> z = new ArrayList<>();
    RemoteIterator<EncryptionZone> it = fs.listEncryptionZones();
    while (it.hasNext()) {
      EncryptionZone e = it.next();
      z.add(
          e.getPath()
              + "="
              + e.getKeyName()
              + "/"
              + e.getSuite().getName()
              + "/v"
              + e.getVersion().getVersion());
    }
    return "zones " + z;
  }

  private static String ez(DistributedFileSystem fs, String p) {
    return "ez(" + p + ") " + answer(() -> zone(fs.getEZForPath(new Path(p))));
  }

  private static String zone(EncryptionZone e) {
    return e == null ? "none" : e.getPath() + "=" + e.getKeyName();
  }

  private static FileEncryptionInfo fei(DistributedFileSystem fs, String p) throws IOException {
    return fs.getClient().getLocatedBlocks(p, 0).getFileEncryptionInfo();
  }

  /** A file's encryption info without the random parts (the modes are compared by this). */
  private static String feiShape(FileEncryptionInfo f) {
    return f == null
        ? "plain"
        : f.getCipherSuite().getName()
            + "/v"
            + f.getCryptoProtocolVersion().getVersion()
            + " key "
            + f.getKeyName()
            + " version "
            + f.getEzKeyVersionName()
            + " edek "
            + f.getEncryptedDataEncryptionKey().length
            + "B iv "
            + f.getIV().length
            + "B";
  }

  /**
   * Every file read back (decrypted content equal to what was written, raw bytes different from
   * it), each file's encryption info and isEncrypted bit, the zones and getEZForPath answers. Adds
   * the exact encryption info of each file to {@code exact} (compared across restarts).
   */
  private List<String> state(DistributedFileSystem fs, Map<String, String> exact)
      throws IOException {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, byte[]> e : content.entrySet()) {
      String p = e.getKey();
      byte[] plain = read(fs, p);
      assertArrayEquals("decrypted content of " + p, e.getValue(), plain);
      byte[] raw = read(fs, "/.reserved/raw" + p);
      assertEquals("raw length of " + p, plain.length, raw.length);
      FileEncryptionInfo f = fei(fs, p);
      if (f != null) {
        assertFalse("raw bytes of " + p + " are ciphertext", Arrays.equals(plain, raw));
        exact.put(p, f.toString());
      } else {
        assertArrayEquals("raw bytes of the unencrypted " + p, plain, raw);
      }
      FileStatus st = fs.getFileStatus(new Path(p));
      out.add(p + " " + plain.length + " encrypted=" + st.isEncrypted() + " " + feiShape(f));
    }
    // the listing's statuses (cold files' too) carry the encryption bit
    for (FileStatus st : fs.listStatus(new Path("/zone/cold"))) {
      out.add("listed " + st.getPath().getName() + " encrypted=" + st.isEncrypted());
    }
    out.add(zones(fs));
    for (String p :
        new String[] {"/", "/zone", "/zone/cold/c7", "/zone/sub/f", "/plain/p", "/z3moved/x"}) {
      out.add(ez(fs, p));
    }
    out.add("raw xattrs " + fs.getXAttrs(new Path("/.reserved/raw/zone/small")).keySet());
    out.add("raw xattrs of the zone " + fs.getXAttrs(new Path("/.reserved/raw/zone")).keySet());
    return out;
  }

  /** Renames and deletes in and across zones: the stock answers. */
  private static List<String> moves(DistributedFileSystem fs, String round) {
    List<String> out = new ArrayList<>();
    String r = round;
    out.add("into a zone " + answer(() -> fs.rename(new Path("/plain/p"), new Path("/zone/p"))));
    out.add(
        "out of a zone "
            + answer(() -> fs.rename(new Path("/zone/small"), new Path("/plain/small" + r))));
    out.add(
        "between zones (rename2) "
            + answer(
                () -> {
                  fs.rename(
                      new Path("/zone/small"), new Path("/z3moved/s" + r), Options.Rename.NONE);
                  return "renamed";
                }));
    out.add(
        "a directory into a zone (rename2) "
            + answer(
                () -> {
                  fs.rename(new Path("/plain"), new Path("/zone/plain" + r), Options.Rename.NONE);
                  return "renamed";
                }));
    out.add(
        "within a zone "
            + answer(() -> fs.rename(new Path("/zone/sub/f"), new Path("/zone/sub/g" + r))));
    out.add(
        "back within a zone "
            + answer(() -> fs.rename(new Path("/zone/sub/g" + r), new Path("/zone/sub/f"))));
    out.add(
        "a zone under another zone "
            + answer(() -> fs.rename(new Path("/z3moved"), new Path("/zone/z3" + r))));
    out.add(
        "a zone onto another "
            + answer(
                () -> {
                  fs.rename(new Path("/z4"), new Path("/z3moved"), Options.Rename.OVERWRITE);
                  return "renamed";
                }));
    out.add("zone on a file " + answer(() -> create(fs, "/plain/p", "k2")));
    out.add("zone on a non-empty directory " + answer(() -> create(fs, "/plain", "k2")));
    out.add("nested zone " + answer(() -> create(fs, "/zone/empty", "k2")));
    out.add("zone with an unknown key " + answer(() -> create(fs, "/z4", "nokey")));
    return out;
  }

  private static String create(DistributedFileSystem fs, String p, String key) throws IOException {
    fs.createEncryptionZone(new Path(p), key);
    return "created";
  }

  private List<String> scenario(boolean nvm) throws Exception {
    content.clear();
    cluster = start("zones", nvm);
    DistributedFileSystem fs = cluster.getFileSystem();
    List<String> seen = new ArrayList<>();
    for (String d : new String[] {"/zone", "/plain", "/z2", "/z3", "/z4", "/z5"}) {
      fs.mkdirs(new Path(d));
    }
    fs.createEncryptionZone(new Path("/zone"), "k1");
    fs.createEncryptionZone(new Path("/z3"), "k3");
    fs.createEncryptionZone(new Path("/z4"), "k3");
    fs.createEncryptionZone(new Path("/z5"), "k2");
    write(fs, "/zone/small", "the text in the zone".getBytes("UTF-8"));
    write(fs, "/zone/big", bytes(3 * BLOCK + 12345, 1)); // four blocks
    write(fs, "/zone/sub/f", bytes(5000, 2));
    fs.mkdirs(new Path("/zone/empty"));
    for (int i = 0; i < COLD_FILES; i++) {
      write(fs, "/zone/cold/c" + i, bytes(100 + i, 10 + i));
    }
    write(fs, "/plain/p", bytes(777, 3));
    fs.rename(new Path("/z3"), new Path("/z3moved")); // a zone's root may move
    write(fs, "/z3moved/x", bytes(2000, 4));
    fs.delete(new Path("/z5"), true); // a deleted zone leaves the list
    // a file left open: its encryption info is in its create's batch, not its close's
    FSDataOutputStream open = fs.create(new Path("/zone/open"), true, 4096, (short) 1, BLOCK);
    open.write(bytes(3000, 5));
    open.hflush();
    FileEncryptionInfo openFei = fei(fs, "/zone/open");
    assertTrue(openFei != null);

    Map<String, String> exact = new TreeMap<>();
    List<String> before = state(fs, exact);
    seen.addAll(before);
    seen.addAll(moves(fs, "1"));
    long materialized = nvm ? NvmTestAccess.materialized(cluster.getNameNode(0)) : 0;

    fs = restart();
    Map<String, String> exactAfter = new TreeMap<>();
    List<String> after = state(fs, exactAfter);
    assertEquals("after the restart", before, after);
    assertEquals("encryption info after the restart", exact, exactAfter);
    assertEquals(
        "the open file's encryption info", openFei.toString(), fei(fs, "/zone/open").toString());
    if (nvm) {
      long cold = NvmTestAccess.materialized(cluster.getNameNode(0));
      assertTrue(
          "files read back cold: " + cold + " materialized, before the restart " + materialized,
          cold >= COLD_FILES);
    }
    seen.addAll(moves(fs, "2"));

    // a second zone after the restart, with files; it persists as well
    fs.createEncryptionZone(new Path("/z2"), "k2");
    write(fs, "/z2/after", bytes(BLOCK + 1, 6));
    seen.add(zones(fs));
    seen.add(ez(fs, "/z2/after"));
    fs = restart();
    Map<String, String> exact2 = new TreeMap<>();
    List<String> again = state(fs, exact2);
    assertEquals("the first zone's files after the second restart", exact, without(exact2, "/z2/"));
    seen.addAll(again);
    seen.add(ez(fs, "/z2/after"));
    seen.add("/z2/after " + feiShape(fei(fs, "/z2/after")));
    // a file of the first zone deleted, the zone then emptied and deleted, after a restart
    fs.delete(new Path("/z3moved/x"), false);
    seen.add("zone root deleted " + fs.delete(new Path("/z3moved"), true));
    content.remove("/z3moved/x");
    fs = restart();
    seen.add(zones(fs));
    seen.add(ez(fs, "/z3moved"));
    return seen;
  }

  private static Map<String, String> without(Map<String, String> m, String prefix) {
    Map<String, String> out = new TreeMap<>(m);
    out.keySet().removeIf(k -> k.startsWith(prefix));
    return out;
  }

  @Test(timeout = 600_000)
  public void zonesAndFileEncryptionInfoSurviveRestartsAsInTheStockNameNode() throws Exception {
    List<String> stock = scenario(false);
    cluster.shutdown();
    cluster = null;
    System.out.println("stock:\n" + String.join("\n", stock));
    List<String> nvm = scenario(true);
    // the reference did encrypt, list and refuse as the assertions below expect
    String all = String.join("\n", stock);
    assertTrue(all, all.contains("/zone/big 3158073 encrypted=true AES/CTR/NoPadding/v2 key k1"));
    assertTrue(all, all.contains("/plain/p 777 encrypted=false plain"));
    assertTrue(all, all.contains("/plain/p can't be moved into an encryption zone."));
    assertTrue(all, all.contains("zones [/zone=k1/"));
    assertTrue(all, all.contains("nested zone IOException: Directory /zone/empty is already in"));
    assertEquals(String.join("\n", stock), String.join("\n", nvm));
  }

  /** 2.7.3 lets the (empty) root directory be a zone; the fsimage loader registers it apart. */
  private List<String> rootScenario(boolean nvm) throws Exception {
    content.clear();
    cluster = start("root", nvm);
    DistributedFileSystem fs = cluster.getFileSystem();
    fs.createEncryptionZone(new Path("/"), "k2");
    write(fs, "/r", bytes(4000, 7));
    write(fs, "/d/e", bytes(BLOCK + 2, 8));
    List<String> seen = new ArrayList<>();
    Map<String, String> exact = new TreeMap<>();
    seen.add(zones(fs));
    seen.add(ez(fs, "/d/e"));
    fs.mkdirs(new Path("/empty"));
    seen.add("nested " + answer(() -> create(fs, "/empty", "k1")));
    for (String p : content.keySet()) {
      exact.put(p, String.valueOf(fei(fs, p)));
    }
    DistributedFileSystem after = restart();
    for (Map.Entry<String, byte[]> e : content.entrySet()) {
      assertArrayEquals(e.getKey(), e.getValue(), read(after, e.getKey()));
      assertFalse(
          e.getKey(), Arrays.equals(e.getValue(), read(after, "/.reserved/raw" + e.getKey())));
      assertEquals(e.getKey(), exact.get(e.getKey()), String.valueOf(fei(after, e.getKey())));
      seen.add(e.getKey() + " " + feiShape(fei(after, e.getKey())));
    }
    seen.add(zones(after));
    seen.add(ez(after, "/d/e"));
    seen.add("root encrypted=" + after.getFileStatus(new Path("/")).isEncrypted());
    seen.add("nested after the restart " + answer(() -> create(after, "/empty", "k1")));
    write(after, "/new", bytes(100, 9));
    seen.add("/new " + feiShape(fei(after, "/new")));
    return seen;
  }

  @Test(timeout = 300_000)
  public void rootZoneSurvivesRestartAsInTheStockNameNode() throws Exception {
    List<String> stock = rootScenario(false);
    cluster.shutdown();
    cluster = null;
    List<String> nvm = rootScenario(true);
    assertTrue(stock.toString(), stock.contains("zones [/=k2/AES/CTR/NoPadding/v2]"));
    assertEquals(String.join("\n", stock), String.join("\n", nvm));
  }
}
