package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import java.io.File;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Command line of the offline region tools. Needs only the drop-in jar (and libpmem):
 *
 * <pre>
 *   java -cp hadoop-hdfs-2.7.3-nvm.jar org.apache.hadoop.hdfs.server.namenode.nvm.tools.NvmRegionTool check REGION
 *   hadoop jar hadoop-hdfs-2.7.3-nvm.jar org.apache.hadoop.hdfs.server.namenode.nvm.tools.NvmRegionTool stat REGION
 *   java -cp ... NvmRegionTool dump --log /elsewhere/region.wal REGION
 * </pre>
 *
 * A region of the disk mode that was not closed needs its write-ahead log (region-format.md §12.5):
 * by default the region's path + ".wal", or the file {@code --log} names.
 *
 * <p>Exit codes: check 0 / 1 / 2 as {@link CheckReport#exitCode()}; dump and stat 0, or 1 if the
 * region cannot be read; {@link #EXIT_USAGE} for a bad command line; {@link #EXIT_INTERNAL} if the
 * tool itself failed (e.g. the native library cannot be loaded).
 */
public final class NvmRegionTool {
  /** A bad command line (sysexits.h EX_USAGE). */
  public static final int EXIT_USAGE = 64;

  /** The tool failed, not the region (sysexits.h EX_SOFTWARE). */
  public static final int EXIT_INTERNAL = 70;

  static final String USAGE =
      "usage: NvmRegionTool <command> [--json] [--log <log-file>] <region-file>\n"
          + "  check <region>         validate the region without writing it; every finding with its offset\n"
          + "                         exit 0 consistent, 1 errors or refused, 2 consistent but needs recovery\n"
          + "  dump [--json] <region> the namespace: counters, one line per inode sorted by path, records\n"
          + "  stat [--json] <region> space use: pages by kind, inodes, blocks, bytes per inode, fragmentation\n"
          + "  --log <log-file>       the region's write-ahead log (disk mode), read if the region needs it;\n"
          + "                         default <region>.wal\n"
          + "exit "
          + EXIT_USAGE
          + " on a usage error, "
          + EXIT_INTERNAL
          + " if the tool itself fails\n";

  private NvmRegionTool() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs one command; returns the exit code instead of exiting. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 1
        && (args[0].equals("-h") || args[0].equals("--help") || args[0].equals("help"))) {
      out.print(USAGE);
      return 0;
    }
    if (args.length < 2) {
      err.print(USAGE);
      return EXIT_USAGE;
    }
    String command = args[0];
    List<String> rest = new ArrayList<String>(Arrays.asList(args).subList(1, args.length));
    boolean json = rest.remove("--json");
    File log = null;
    int at = rest.indexOf("--log");
    if (at >= 0 && at + 1 < rest.size()) {
      log = new File(rest.remove(at + 1));
      rest.remove(at);
    }
    if (rest.size() != 1 || rest.get(0).startsWith("-") || (json && command.equals("check"))) {
      err.print(USAGE);
      return EXIT_USAGE;
    }
    File region = new File(rest.get(0));
    try {
      switch (command) {
        case "check":
          CheckReport report = RegionCheck.run(region, log);
          out.print(report.format());
          return report.exitCode();
        case "dump":
          NamespaceDump dump = NamespaceDump.read(region, log);
          PrintWriter w = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
          if (json) {
            dump.writeJson(w);
          } else {
            dump.writeText(w);
          }
          return 0;
        case "stat":
          StatReport stat = RegionStat.run(region, log);
          out.print(json ? stat.json() : stat.format());
          return 0;
        default:
          err.print("unknown command '" + command + "'\n" + USAGE);
          return EXIT_USAGE;
      }
    } catch (IOException e) {
      err.println(command + ": " + e.getMessage());
      return 1;
    } catch (RuntimeException | LinkageError | VirtualMachineError e) {
      // not a verdict on the region: a bug, a missing native library, too little heap
      err.println(command + ": the tool failed: " + e);
      return EXIT_INTERNAL;
    }
  }
}
