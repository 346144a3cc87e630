package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;

/**
 * Loads libhdfsnvm once per class loader: first from java.library.path, else from the copy bundled
 * in the jar (extracted to a temporary file). {@link #isAvailable()} and {@link #failureReason()}
 * never throw; {@link #load()} throws one clear error.
 */
public final class NativeLibrary {
  static final String LIBRARY_NAME = "hdfsnvm";
  static final String RESOURCE = "/native/Linux-amd64/libhdfsnvm.so";

  private static final Object LOCK = new Object();
  private static boolean attempted;
  private static String failure;

  private NativeLibrary() {}

  /** True if the library is (or could now be) loaded. */
  public static boolean isAvailable() {
    return ensureLoaded() == null;
  }

  /** Why loading failed, or null if it succeeded. */
  public static String failureReason() {
    return ensureLoaded();
  }

  /** Loads the library or throws an UnsatisfiedLinkError that says what was tried. */
  public static void load() {
    String why = ensureLoaded();
    if (why != null) {
      throw new UnsatisfiedLinkError(why);
    }
  }

  private static String ensureLoaded() {
    synchronized (LOCK) {
      if (!attempted) {
        failure = resolve(LIBRARY_NAME, RESOURCE);
        attempted = true;
      }
      return failure;
    }
  }

  /**
   * Tries both ways of loading {@code libraryName}; returns null on success or the failure message.
   * Package-private so a test can run it against names that do not exist.
   */
  static String resolve(String libraryName, String resource) {
    String fromPath;
    try {
      System.loadLibrary(libraryName);
      return null;
    } catch (UnsatisfiedLinkError e) {
      fromPath = e.getMessage();
    }
    String fromJar;
    try {
      File f = extract(resource);
      if (f == null) {
        fromJar = "resource not found on the class path";
      } else {
        try {
          System.load(f.getAbsolutePath());
          return null;
        } finally {
          // The mapping stays valid after the file is unlinked.
          f.delete();
        }
      }
    } catch (IOException | UnsatisfiedLinkError e) {
      fromJar = e.getMessage();
    }
    return "cannot load native library lib"
        + libraryName
        + ".so: not loadable from java.library.path="
        + System.getProperty("java.library.path")
        + " ("
        + fromPath
        + "), and the bundled resource "
        + resource
        + " failed ("
        + fromJar
        + "). libhdfsnvm needs libpmem at run time (Debian/Ubuntu: apt-get install libpmem1).";
  }

  private static File extract(String resource) throws IOException {
    InputStream in = NativeLibrary.class.getResourceAsStream(resource);
    if (in == null) {
      return null;
    }
    try {
      File tmp = File.createTempFile("libhdfsnvm-", ".so");
      tmp.deleteOnExit();
      try (OutputStream out = Files.newOutputStream(tmp.toPath())) {
        byte[] buf = new byte[64 * 1024];
        int n;
        while ((n = in.read(buf)) > 0) {
          out.write(buf, 0, n);
        }
      }
      return tmp;
    } finally {
      in.close();
    }
  }
}
