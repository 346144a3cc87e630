package org.nvmnn.workload.fuzz;

import java.util.Random;

/**
 * The generator's one random stream and how hostile its arguments are. Every piece of the generator
 * ({@link Names}, {@link PathChoice}, {@link Values}, the call builders, {@link SnapshotOps}) draws
 * from this same {@link Random}, so the calls of a seed depend on the order of the draws across all
 * of them: moving a draw, or adding one, changes every later call (GeneratorSequenceTest holds the
 * sequences of record).
 */
final class Dice {
  final Random rnd;

  /** The probability that an argument is hostile. */
  final double hostileRate;

  Dice(long seed, double hostileRate) {
    this.rnd = new Random(seed);
    this.hostileRate = hostileRate;
  }

  /** Whether the next argument is hostile (one draw). */
  boolean hostile() {
    return rnd.nextDouble() < hostileRate;
  }

  <T> T pick(T[] a) {
    return a[rnd.nextInt(a.length)];
  }

  /** Who makes a call ({@link Callers}): mostly the superuser, now and then an odd caller. */
  int caller() {
    int k = rnd.nextInt(100);
    return k < 80 ? 0 : k < 92 ? 1 : k < 96 ? 2 : 3;
  }

  /** The superuser, but for one call in ten (one draw, and those of {@link #caller} then). */
  int callerMostlySuper() {
    return rnd.nextInt(10) == 0 ? caller() : 0;
  }
}
