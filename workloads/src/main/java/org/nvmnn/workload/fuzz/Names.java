package org.nvmnn.workload.fuzz;

import java.util.Random;

/**
 * Names of new entries: {@code n<k>} from a counter that only grows (so a fresh name is new in its
 * directory), or, hostile, one built to hit a limit or a byte value. Hostile names also serve as
 * users, groups, ACL and xattr names.
 */
final class Names {
  private final Dice d;
  private final Random rnd;

  /** The counter behind the names; every name, hostile or not, takes a number. */
  private long seq;

  Names(Dice d) {
    this.d = d;
    this.rnd = d.rnd;
  }

  /** The numbers taken so far (hostile paths name inode ids in about this range). */
  long issued() {
    return seq;
  }

  /** A fresh name, hostile with the generator's probability. */
  String name() {
    seq++;
    return d.hostile() ? hostileName() : "n" + seq;
  }

  /** A fresh ordinary name, without a draw. */
  String plainName() {
    return "n" + (++seq);
  }

  /** A name (also used for users and groups) built to hit a limit or a byte value. */
  String hostileName() {
    seq++;
    String s = Long.toString(seq);
    switch (rnd.nextInt(12)) {
      case 0:
      case 1:
      case 2:
        return "b" + (char) rnd.nextInt(256) + s; // every byte value; 0 is NUL, 47 is '/'
      case 3:
        return s + Text.repeat('L', 255 - s.length()); // the component limit
      case 4:
        return s + Text.repeat('L', 256 - s.length()); // one past it
      case 5:
        return s + Text.repeat('\u65e5', (255 - s.length()) / 3 + rnd.nextInt(2)); // 3-byte chars
      case 6:
        {
          StringBuilder b = new StringBuilder(s);
          int n = (255 - s.length()) / 4 + rnd.nextInt(2);
          for (int i = 0; i < n; i++) {
            b.append("\ud83d\ude00"); // 4 bytes each
          }
          return b.toString();
        }
      case 7:
        return d.pick(
            new String[] {
              ".", "..", "...", ".snapshot", ".reserved", "a:b", " ", "-x", "*", "\\", "%2F", "~"
            });
      case 8:
        return "s\ud800" + s; // an unpaired surrogate (UTF-8 encoding makes it '?')
      case 9:
        {
          // around the region's 232-byte string limit, in ASCII and in 2-byte characters
          int len = d.pick(new Integer[] {231, 232, 233, 1000, 10000});
          return rnd.nextBoolean()
              ? s + Text.repeat('x', len - s.length())
              : s + Text.repeat('\u00e9', (len - s.length()) / 2 + 1);
        }
      case 10:
        {
          StringBuilder b = new StringBuilder("r");
          int n = 1 + rnd.nextInt(12);
          for (int i = 0; i < n; i++) {
            b.append((char) rnd.nextInt(0x10000));
          }
          return b.append(s).toString();
        }
      default:
        return "";
    }
  }

  /** getListing's startAfter: mostly none, else a name that was or may be in a listing. */
  String startAfter() {
    if (rnd.nextInt(4) > 0) {
      return null;
    }
    return d.hostile() ? hostileName() : "n" + rnd.nextInt((int) Math.max(1, seq));
  }
}
