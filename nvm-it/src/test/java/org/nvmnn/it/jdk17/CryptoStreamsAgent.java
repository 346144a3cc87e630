package org.nvmnn.it.jdk17;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;

/**
 * A test-harness Java agent (like the {@code --add-opens} flags, an adaptation of Hadoop 2.7.3 to
 * the JDK 17 the tests run on; not part of the product). Hadoop 2.7.3's client crypto streams
 * (CryptoOutputStream, CryptoInputStream: every read and write of a file in an encryption zone)
 * free their direct buffers at close with {@code CryptoStreamUtils.freeDB(ByteBuffer)}, which calls
 * {@code ((sun.nio.ch.DirectBuffer) b).cleaner().clean()} through the descriptor {@code
 * cleaner()Lsun/misc/Cleaner;}. JDK 9 and later declare {@code cleaner()} returning {@code
 * jdk.internal.ref.Cleaner}, so every such close throws NoSuchMethodError on JDK 17 (after the
 * wrapped stream was closed), and upstream's encryption-zone tests fail in stock mode as in NVM
 * mode. This agent turns the body of {@code freeDB} into a plain return when the class is loaded:
 * the buffers are then released by the garbage collector, as any direct buffer is. Nothing else is
 * changed; a class whose code is not 2.7.3's exact {@code freeDB} is left alone (and said so on
 * stderr).
 *
 * <p>The jar {@code target/nvm-it-*-jdk17-agent.jar} (this class and its manifest) is built at
 * process-test-classes and given to every test JVM of this module ({@code -javaagent}); the
 * encryption-zone demo's client JVMs use it too.
 */
public final class CryptoStreamsAgent {
  private CryptoStreamsAgent() {}

  static final String CLASS = "org/apache/hadoop/crypto/CryptoStreamUtils";

  /**
   * The code of 2.7.3's {@code freeDB}: aload_0; instanceof #3 (DirectBuffer); ifeq +17; aload_0;
   * checkcast #3; invokeinterface #4 (cleaner), 1; astore_1; aload_1; invokevirtual #5 (clean);
   * return. Preceded by its Code attribute's max_stack (1), max_locals (2) and code_length (22).
   */
  static final byte[] FREE_DB = {
    0,
    1,
    0,
    2,
    0,
    0,
    0,
    22, // max_stack, max_locals, code_length
    0x2a,
    (byte) 0xc1,
    0,
    3,
    (byte) 0x99,
    0,
    0x11,
    0x2a,
    (byte) 0xc0,
    0,
    3,
    (byte) 0xb9,
    0,
    4,
    1,
    0,
    0x4c,
    0x2b,
    (byte) 0xb6,
    0,
    5,
    (byte) 0xb1
  };

  /** The code bytes before the final return (offsets 0 to 20) become nop. */
  private static final int CODE_START = 8;

  private static final int NOPS = 21;

  public static void premain(String args, Instrumentation inst) {
    inst.addTransformer(
        new ClassFileTransformer() {
          @Override
          public byte[] transform(
              ClassLoader loader,
              String name,
              Class<?> redefined,
              ProtectionDomain pd,
              byte[] bytes) {
            return CLASS.equals(name) ? patch(bytes) : null;
          }
        });
  }

  /** The class with freeDB's body emptied, or null (unchanged) if its code is not 2.7.3's. */
  static byte[] patch(byte[] bytes) {
    int at = -1;
    for (int i = 0; i + FREE_DB.length <= bytes.length; i++) {
      if (matches(bytes, i)) {
        if (at >= 0) {
          at = -2; // more than one: not the class this was written for
          break;
        }
        at = i;
      }
    }
    if (at < 0) {
      System.err.println(
          "CryptoStreamsAgent: " + CLASS + " is not Hadoop 2.7.3's; freeDB left unchanged");
      return null;
    }
    byte[] out = bytes.clone();
    for (int i = 0; i < NOPS; i++) {
      out[at + CODE_START + i] = 0; // nop; the frame at the return (offset 21) still holds
    }
    return out;
  }

  private static boolean matches(byte[] b, int at) {
    for (int j = 0; j < FREE_DB.length; j++) {
      if (b[at + j] != FREE_DB[j]) {
        return false;
      }
    }
    return true;
  }
}
