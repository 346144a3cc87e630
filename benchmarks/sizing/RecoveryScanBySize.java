import java.io.File;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeAttrs;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.RecoveryReport;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionIdentity;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;

/**
 * How the recovery scan at a NameNode start grows with the region's size: for each size, a region
 * with a root and INODES files is created in DIR (emulated mode), closed, and opened RUNS times;
 * each open's native recovery time is printed. Run from the repository root with the drop-in jar:
 *
 * <p>java -cp hadoop-hdfs-nvm/target/hadoop-hdfs-2.7.3-nvm.jar \
 * benchmarks/sizing/RecoveryScanBySize.java DIR INODES RUNS SIZE... (sizes like 64m, 1g)
 */
public class RecoveryScanBySize {
  public static void main(String[] a) throws Exception {
    File dir = new File(a[0]);
    int inodes = Integer.parseInt(a[1]);
    int runs = Integer.parseInt(a[2]);
    for (int s = 3; s < a.length; s++) {
      long size = bytes(a[s]);
      File f = new File(dir, "scan-" + a[s] + ".region");
      f.delete();
      try (InodeStore st =
          InodeStore.open(
              Region.create(f, size, new RegionIdentity(1, "c", "b"), PersistMode.EMULATED))) {
        st.format(1, 0755, "hdfs", "supergroup");
        long d = create(st, st.rootPage(), InodeAttrs.directory("d"));
        for (int i = 1; i < inodes - 1; i++) {
          create(st, d, InodeAttrs.file("f" + i));
        }
      }
      StringBuilder line =
          new StringBuilder(
              String.format(
                  "region %6s (%d pages), %d inodes: scan ms", a[s], (size - 16384) / 256, inodes));
      for (int r = 0; r < runs; r++) {
        try (Region region = Region.open(f, PersistMode.EMULATED)) {
          RecoveryReport rep = region.recovery();
          line.append(String.format(" %.1f", rep.elapsedNanos() / 1e6));
          if (rep.inodesLive() != inodes) {
            throw new AssertionError("recovered " + rep.inodesLive() + " inodes, wrote " + inodes);
          }
        }
      }
      System.out.println(line);
      f.delete();
    }
  }

  private static long bytes(String s) {
    char u = Character.toLowerCase(s.charAt(s.length() - 1));
    long m = u == 'k' ? 1L << 10 : u == 'm' ? 1L << 20 : u == 'g' ? 1L << 30 : 1;
    return Long.parseLong(m == 1 ? s : s.substring(0, s.length() - 1)) * m;
  }

  /** One inode, one transaction (one batch, one native call). */
  private static long create(InodeStore st, long parent, InodeAttrs attrs) throws Exception {
    try (Txn t = st.begin()) {
      long page = t.create(parent, attrs);
      t.commit();
      return page;
    }
  }
}
