package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.junit.Assert.*;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import org.junit.Test;

/**
 * IdleStrings behaves as the LinkedHashSet it replaced: membership, size and oldest-first order.
 */
public class IdleStringsTest {
  private static List<Long> order(IdleStrings s) {
    List<Long> out = new ArrayList<>();
    for (long id = s.oldest(); id != 0; id = s.after(id)) {
      out.add(id);
    }
    return out;
  }

  @Test
  public void randomAddsAndRemovesMatchALinkedHashSet() {
    Random r = new Random(27);
    IdleStrings s = new IdleStrings();
    LinkedHashSet<Long> ref = new LinkedHashSet<>();
    for (int i = 0; i < 50_000; i++) {
      long id = 1 + r.nextInt(40);
      if (r.nextInt(3) == 0) {
        s.remove(id);
        ref.remove(id);
      } else {
        s.add(id);
        ref.add(id);
      }
      assertEquals(ref.size(), s.size());
      assertEquals(ref.contains(id), s.contains(id));
      if (i % 97 == 0) {
        assertEquals(new ArrayList<>(ref), order(s));
      }
    }
    assertEquals(new ArrayList<>(ref), order(s));
  }

  @Test
  public void addingAMemberKeepsItsPlace() {
    IdleStrings s = new IdleStrings();
    s.add(5);
    s.add(7);
    s.add(5);
    s.add(9);
    assertEquals(java.util.Arrays.asList(5L, 7L, 9L), order(s));
    s.remove(7);
    s.remove(7);
    assertEquals(java.util.Arrays.asList(5L, 9L), order(s));
    s.remove(5);
    s.remove(9);
    assertEquals(0, s.size());
    assertEquals(0, s.oldest());
    s.add(3);
    assertEquals(java.util.Arrays.asList(3L), order(s));
  }
}
