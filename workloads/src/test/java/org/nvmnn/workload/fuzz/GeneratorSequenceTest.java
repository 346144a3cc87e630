package org.nvmnn.workload.fuzz;

import static org.junit.Assert.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.Test;

/**
 * The seeds of record: a seed must give the same calls forever, so that a run's seed (and a
 * reproduction recorded from it) replays after any change to the generator's code. Each case drives
 * a {@link Generator} for {@link #CALLS} calls the way FuzzRpc does, without NameNodes: every call
 * gets an answer from a pretend NameNode pair that decides from its own seeded stream (succeeding
 * mostly, with true or false where the generator reads a boolean, failing now and then), a restart
 * every {@link #RESTART_EVERY} calls resynchronizes the generator from its own model's listing, and
 * a fresh start every {@link #FRESH_EVERY} calls resets it (as after a divergence). The SHA-256 of
 * every call's line (the text form of reproduction files) and of its tags, sorted, is compared with
 * the hash the generator gave when it was one file (1,169 lines, commit 87fdbfa).
 *
 * <p>A change of a hash here means that the generator now draws differently: the seeds of earlier
 * runs no longer give their calls. If that is wanted (a new call, a new weight), it changes the
 * hashes on purpose, and the commit says so.
 */
public class GeneratorSequenceTest {
  private static final int CALLS = 20000;
  private static final int RESTART_EVERY = 2500;
  private static final int FRESH_EVERY = 7000;
  private static final long[] SEEDS = {1, 777, 42, 20261128};
  private static final Set<String> SKIP =
      new HashSet<>(Arrays.asList("negative-length", "type-quota"));

  /**
   * The cases: each seed with the snapshot calls off (the table of the runs of record) and on, with
   * FuzzRpc's defaults (hostile 0.15, 1,500 entries, renewal every 500 calls, nothing skipped) and
   * with more hostility, a namespace of 60 entries at most (so that the generator deletes to shrink
   * it) and renewal every 97 calls, skipping two tags.
   */
  private static List<Object[]> cases() {
    List<Object[]> c = new ArrayList<>();
    for (long seed : SEEDS) {
      for (boolean snapshots : new boolean[] {false, true}) {
        c.add(new Object[] {seed, snapshots, false});
        c.add(new Object[] {seed, snapshots, true});
      }
    }
    return c;
  }

  private static final String[] EXPECTED = {
    "seed 1: fa02ed2ea048e73fc95c08a66ae91ed73692785670e6f1745aa2d2cc010b2342",
    "seed 1, skip: 709de7098376b3d26ee74ad740929989ec9b73a1fe3a129fa020e1866111c384",
    "seed 1, snapshots: 08fa9c654f2e8af4f0e7d50f087874806b8163f2afc5b8a8eb268ef1e8ad8a87",
    "seed 1, snapshots, skip: 3a2b161efd1db9fbd411f10df69352cf7d941ceb94a2a4b1a7f799229d1a6b4f",
    "seed 777: 5d913c2bbb703c30556380199bdff7fbbebb2950aea24a4a755e89f585d75729",
    "seed 777, skip: 5e6efa1d067813d104f66923ee92bc057025e559505ac5ccbcda4de949ac2f68",
    "seed 777, snapshots: aef90f8fef14cc74578cca4d548db73d673a1f40a8f0f2cff90624bf7a1252e2",
    "seed 777, snapshots, skip: 20ec6a2d06f77fc65a5ce23fb705d9e9731bb6460a9a6b6e6ad2263ff26c74e8",
    "seed 42: 77c467f4ecc1fb50a0280d648b834fe693787c70258c490473da9367982656e6",
    "seed 42, skip: cb75ef9ebf841a0db740fcb87d33a6294028ad94223297930a39644b056d13ec",
    "seed 42, snapshots: cb62998f34d2fcab1919f56f1bca8686cd98eb7cc90aec0dd8fe0254c269660b",
    "seed 42, snapshots, skip: 43519ec467ca02a29965d5f5896d713d299c0aeac53dc2048e0f177666b1bedc",
    "seed 20261128: 7dd4be04dc19e2e807dca9c71ce92b21e68d64ed21bee4f9567e1895f2727456",
    "seed 20261128, skip: f298cf0cde59e370584b74d931a7e9d43c89229eddc2f6c1394a89f59c34e6c4",
    "seed 20261128, snapshots: 710659aceba7dd71af22f53f7f8e6d54114e3b49c4b6737277c231e72138e362",
    "seed 20261128, snapshots, skip: 2df4c5d134322e86ad86f59a6ab2fcec15c6d3154e58a50e34c9acda839592c8",
  };

  @Test
  public void everySeedGivesTheCallsOfRecord() throws Exception {
    List<String> got = new ArrayList<>();
    for (Object[] k : cases()) {
      got.add(name(k) + ": " + hash((Long) k[0], (Boolean) k[1], (Boolean) k[2]));
    }
    assertEquals(String.join("\n", EXPECTED), String.join("\n", got));
  }

  private static String name(Object[] k) {
    return "seed "
        + k[0]
        + (((Boolean) k[1]) ? ", snapshots" : "")
        + (((Boolean) k[2]) ? ", skip" : "");
  }

  private static String hash(long seed, boolean snapshots, boolean skipping)
      throws NoSuchAlgorithmException {
    Generator g =
        skipping
            ? new Generator(seed, 0.3, 60, 97, SKIP, snapshots)
            : new Generator(seed, 0.15, 1500, 500, new HashSet<>(), snapshots);
    Random answers = new Random(seed * 31 + (snapshots ? 1 : 0) + (skipping ? 2 : 0));
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    for (int i = 1; i <= CALLS; i++) {
      Op op = g.next();
      md.update(op.toString().getBytes(StandardCharsets.UTF_8));
      md.update((" " + new TreeSet<>(op.tags) + "\n").getBytes(StandardCharsets.UTF_8));
      g.observe(op, answer(op, answers));
      if (i % FRESH_EVERY == 0) {
        g.reset();
        md.update("FRESH\n".getBytes(StandardCharsets.UTF_8));
      } else if (i % RESTART_EVERY == 0) {
        g.resync(listing(g.m));
        md.update("RESTART\n".getBytes(StandardCharsets.UTF_8));
      }
    }
    StringBuilder b = new StringBuilder();
    for (byte x : md.digest()) {
      b.append(String.format("%02x", x));
    }
    return b.toString();
  }

  /** Paths past the NameNode's limits, which it refuses (so that the model's paths stay short). */
  private static final Set<String> REFUSED =
      new HashSet<>(Arrays.asList("long-path", "deep", "long-name", "nul"));

  /**
   * What the pretend NameNodes agree on: mostly success, true mostly where a boolean is read; a
   * refusal for a path past a limit.
   */
  private static Outcome answer(Op op, Random r) {
    int k = r.nextInt(100);
    if (k < 20 || !Collections.disjoint(op.tags, REFUSED)) {
      return Outcome.failed(new IOException("refused"));
    }
    if (k < 25) {
      return Outcome.ok(Boolean.FALSE);
    }
    if (k < 90) {
      return Outcome.ok(Boolean.TRUE);
    }
    return Outcome.ok(null);
  }

  /** The namespace as a restart would list it: the model's own paths, open files under way. */
  private static Map<String, Canon> listing(Model m) {
    Map<String, Canon> out = new LinkedHashMap<>();
    for (String p : m.subtree("/")) {
      Canon c = new Canon();
      c.put("type", m.isDir(p) ? "dir" : "file");
      if (!m.isDir(p)) {
        c.put("blocks.uc", m.open.contains(p));
      }
      out.put(p, c);
    }
    return out;
  }
}
