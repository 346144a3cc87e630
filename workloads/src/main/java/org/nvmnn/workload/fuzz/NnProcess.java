package org.nvmnn.workload.fuzz;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One NameNode process (the drop-in jar from the runtime directory, a configuration directory
 * written by scripts/cluster-lib.sh's write_conf): started from a copy of the formatted template
 * name directory, SIGKILLed, restarted. Its output goes to {@code <conf>/logs/namenode.log}; {@link
 * #logSinceStart} is what the current process wrote.
 */
final class NnProcess {
  final String name;
  private final File conf;
  private final File nameDir;
  private final File region;
  private final File template;
  private final String java;
  private final String lib;
  private final String heap;
  private final File log;

  /**
   * The NameNodes' JIT (fuzz.nn.tier, NN_TIER): 1, C1 only, starts a pair faster (about 0.7 s) and,
   * on this 2-core machine, also served the calls faster (861 against 592 per second over 20,000
   * calls) than 4, the default tiered JIT, whose C2 threads compete for the cores.
   */
  static final String TIER = System.getProperty("fuzz.nn.tier", "1");

  /**
   * Whether the NameNodes run with the NVM write-through's debugging checks (fuzz.nn.debugChecks,
   * DEBUG_CHECKS): a batch that frees a directory page some live inode still names
   * (nvm.debug.parentLinks), or a batch that left a snapshot record unequal to memory
   * (nvm.debug.snapshotSweep), fails the call that caused it, instead of a restart failing or
   * differing later. The stock NameNode ignores both properties.
   */
  static final String DEBUG_CHECKS = System.getProperty("fuzz.nn.debugChecks", "true");

  private Process proc;
  private long logStart;
  private int starts;

  NnProcess(
      String name,
      File conf,
      File nameDir,
      File region,
      File template,
      String java,
      String lib,
      String heap) {
    this.name = name;
    this.conf = conf;
    this.nameDir = nameDir;
    this.region = region;
    this.template = template;
    this.java = java;
    this.lib = lib;
    this.heap = heap;
    this.log = new File(conf, "logs/namenode.log");
  }

  File conf() {
    return conf;
  }

  int starts() {
    return starts;
  }

  /** A fresh namespace: the template name directory copied over, no region. */
  void reset() throws IOException {
    kill();
    delete(nameDir.toPath());
    if (region != null) {
      Files.deleteIfExists(region.toPath());
    }
    copy(template.toPath(), nameDir.toPath());
  }

  void start() throws IOException {
    File logs = log.getParentFile();
    File tmp = new File(conf, "tmp");
    logs.mkdirs();
    tmp.mkdirs();
    logStart = log.length();
    List<String> cmd =
        new ArrayList<>(
            Arrays.asList(
                java,
                heap,
                "-XX:+UseParallelGC",
                "-XX:TieredStopAtLevel=" + TIER,
                "-Dhadoop.log.dir=" + logs,
                "-Djava.io.tmpdir=" + tmp,
                "-Djava.net.preferIPv4Stack=true",
                "-Dnvm.debug.parentLinks=" + DEBUG_CHECKS,
                "-Dnvm.debug.snapshotSweep=" + DEBUG_CHECKS,
                "-cp",
                conf + File.pathSeparator + lib + "/*",
                "org.apache.hadoop.hdfs.server.namenode.NameNode"));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("PMEM_IS_PMEM_FORCE", "1");
    pb.redirectErrorStream(true);
    pb.redirectOutput(ProcessBuilder.Redirect.appendTo(log));
    proc = pb.start();
    starts++;
    // for the driver script's clean-up, should this JVM die without killing it
    Files.write(
        new File(conf, "namenode.pid").toPath(),
        Long.toString(pid(proc)).getBytes(StandardCharsets.UTF_8));
  }

  /** The process id (Java 8 has no Process.pid(): UNIXProcess's field). */
  static long pid(Process p) {
    try {
      return (Long) Process.class.getMethod("pid").invoke(p);
    } catch (ReflectiveOperationException e) {
      try {
        java.lang.reflect.Field f = p.getClass().getDeclaredField("pid");
        f.setAccessible(true);
        return f.getLong(p);
      } catch (ReflectiveOperationException e2) {
        return -1;
      }
    }
  }

  boolean alive() {
    return proc != null && proc.isAlive();
  }

  /** Exit status if the process has exited, else null. */
  Integer exitStatus() {
    return proc != null && !proc.isAlive() ? proc.exitValue() : null;
  }

  /** SIGKILL (Process.destroyForcibly) and wait until it is gone. */
  synchronized void kill() {
    if (proc == null) {
      return;
    }
    proc.destroyForcibly();
    try {
      proc.waitFor(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    proc = null;
  }

  /** Waits up to ms for the process to exit by itself; true if it did. */
  boolean waitExit(long ms) {
    try {
      return proc == null || proc.waitFor(ms, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The last {@code lines} lines the current (or last) process wrote to its log. */
  String logSinceStart(int lines) {
    try (RandomAccessFile f = new RandomAccessFile(log, "r")) {
      long len = f.length();
      long from = Math.max(logStart, len - 256 * 1024);
      byte[] buf = new byte[(int) (len - from)];
      f.seek(from);
      f.readFully(buf);
      String[] all = new String(buf, StandardCharsets.UTF_8).split("\n");
      int first = Math.max(0, all.length - lines);
      return String.join("\n", Arrays.asList(all).subList(first, all.length));
    } catch (IOException e) {
      return "(cannot read " + log + ": " + e + ")";
    }
  }

  /**
   * Why the current process stopped or failed to start, from its log: the first FATAL line, else
   * the exception after "Failed to start namenode", else the last ERROR line; null if none.
   */
  String failureLine() {
    String[] lines = logSinceStart(5000).split("\n");
    for (String l : lines) {
      if (l.contains(" FATAL ")) {
        return l;
      }
    }
    for (int i = 0; i < lines.length - 1; i++) {
      // the edit log loader names the cause of a replay failure a few lines below
      if (lines[i].contains("Error replaying edit log")
          || lines[i].contains("Encountered exception on operation")) {
        for (int j = i + 1; j < Math.min(lines.length, i + 6); j++) {
          if (lines[j].matches("^[A-Za-z0-9_.$]+(Exception|Error)(: .*)?$")
              && !lines[j].contains("EditLogInputException")) {
            return lines[j];
          }
        }
      }
    }
    for (int i = 0; i < lines.length - 1; i++) {
      if (lines[i].contains("Failed to start namenode")) {
        return lines[i + 1];
      }
    }
    for (int i = lines.length - 1; i >= 0; i--) {
      if (lines[i].contains(" ERROR ")) {
        return lines[i];
      }
    }
    return null;
  }

  static void delete(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    Files.walkFileTree(
        p,
        new SimpleFileVisitor<Path>() {
          @Override
          public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
            Files.delete(f);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
            Files.delete(d);
            return FileVisitResult.CONTINUE;
          }
        });
  }

  static void copy(Path from, Path to) throws IOException {
    Files.walkFileTree(
        from,
        new SimpleFileVisitor<Path>() {
          @Override
          public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes a)
              throws IOException {
            Files.createDirectories(to.resolve(from.relativize(d).toString()));
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
            Files.copy(
                f, to.resolve(from.relativize(f).toString()), StandardCopyOption.COPY_ATTRIBUTES);
            return FileVisitResult.CONTINUE;
          }
        });
  }
}
