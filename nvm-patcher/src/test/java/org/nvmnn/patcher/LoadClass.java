package org.nvmnn.patcher;

/**
 * Child-process entry point for {@link JvmVerifierTest}: loads, links (which verifies) and
 * initializes each named class and prints where it came from.
 */
public final class LoadClass {
  private LoadClass() {}

  public static void main(String[] args) {
    try {
      for (String name : args) {
        Class<?> c = Class.forName(name, true, LoadClass.class.getClassLoader());
        System.out.println(
            "LOADED " + name + " FROM " + c.getProtectionDomain().getCodeSource().getLocation());
      }
    } catch (Throwable t) {
      System.out.println("FAILED " + t);
      t.printStackTrace(System.out);
      System.exit(1);
    }
    System.exit(0);
  }
}
