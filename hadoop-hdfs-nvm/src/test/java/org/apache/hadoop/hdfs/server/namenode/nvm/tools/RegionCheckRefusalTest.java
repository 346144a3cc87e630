package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.junit.Assert.*;

import java.io.File;
import java.nio.file.Files;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.apache.hadoop.hdfs.server.namenode.nvm.ShmDir;
import org.junit.Rule;
import org.junit.Test;

/**
 * Files the native open refuses: one REFUSED error naming the error code, at the offset of the
 * field that failed, exit code 1, the file unchanged.
 */
public class RegionCheckRefusalTest {
  @Rule public ShmDir shm = new ShmDir();

  private SampleNamespace sample() throws Exception {
    return SampleNamespace.create(shm, "r");
  }

  private static Finding refused(File f, String code, long offset) throws Exception {
    CheckReport r = CheckAssert.check(f);
    Finding x = CheckAssert.onlyError(r, Finding.Kind.REFUSED, offset);
    assertEquals(r.format(), 1, r.findings().size());
    assertTrue(r.isRefused());
    assertTrue(x.message(), x.message().contains(code + ": "));
    assertTrue(r.format(), r.format().contains("refused (exit 1)"));
    return x;
  }

  @Test
  public void flippedBitInTheHeaderIsACrcMismatchAtTheCrcField() throws Exception {
    File f = sample().file;
    RegionDamage.flipBit(f, HDR_CLUSTER_ID + 3, 2);
    Finding x = refused(f, "NVM_ECORRUPT", HDR_CRC);
    assertTrue(x.message(), x.message().contains("header checksum mismatch"));
  }

  @Test
  public void flippedBitInTheStoredCrcIsReportedThere() throws Exception {
    File f = sample().file;
    RegionDamage.flipBit(f, HDR_CRC + 1, 0);
    refused(f, "NVM_ECORRUPT", HDR_CRC);
  }

  @Test
  public void truncatedFileIsRefusedAtItsEnd() throws Exception {
    File f = sample().file;
    long cut = SampleNamespace.REGION_SIZE - 3 * PAGE_SIZE;
    RegionDamage.truncate(f, cut);
    Finding x = refused(f, "NVM_ETRUNCATED", cut);
    assertTrue(x.message(), x.message().contains(String.valueOf(SampleNamespace.REGION_SIZE)));
  }

  @Test
  public void emptyFileIsNotARegion() throws Exception {
    File f = shm.file("empty");
    Files.write(f.toPath(), new byte[0]);
    refused(f, "NVM_ENOTREGION", HDR_MAGIC);
  }

  @Test
  public void otherFormatVersionIsRefusedAtTheVersionField() throws Exception {
    File f = sample().file;
    RegionDamage.write(f, HDR_VERSION, new byte[] {1, 0, 0, 0}); // format 1 had no scan limit
    Finding x = refused(f, "NVM_EVERSION", HDR_VERSION);
    assertTrue(x.message(), x.message().contains("version 1"));
  }

  @Test
  public void otherPageSizeIsRefusedAtThePageSizeField() throws Exception {
    File f = sample().file;
    RegionDamage.write(f, HDR_PAGE_SIZE, new byte[] {0, 2, 0, 0}); // 512
    refused(f, "NVM_EVERSION", HDR_PAGE_SIZE);
  }

  @Test
  public void damagedSuperblockMagicIsRefusedThere() throws Exception {
    File f = sample().file;
    RegionDamage.flipBit(f, SB_MAGIC, 0);
    refused(f, "NVM_ECORRUPT", SB_MAGIC);
  }

  @Test
  public void damagedScanLimitIsRefusedThere() throws Exception {
    File f = sample().file;
    RegionDamage.flipBit(f, SB_SCAN_LIMIT, 3); // the low half no longer matches the high one
    Finding x = refused(f, "NVM_ECORRUPT", SB_SCAN_LIMIT);
    assertTrue(x.message(), x.message().contains("bad scan limit word"));
  }

  @Test
  public void scanLimitBeyondThePageCountIsRefused() throws Exception {
    File f = sample().file;
    RegionDamage.putLong(f, SB_SCAN_LIMIT, ScanLimit.word(SampleNamespace.REGION_SIZE / PAGE_SIZE));
    refused(f, "NVM_ECORRUPT", SB_SCAN_LIMIT);
  }

  @Test
  public void fileLongerThanTheHeaderSaysIsRefusedAtTheSizeField() throws Exception {
    File f = sample().file;
    RegionDamage.truncate(f, SampleNamespace.REGION_SIZE + PAGE_SIZE);
    refused(f, "NVM_ECORRUPT", HDR_REGION_SIZE);
  }

  @Test
  public void armedUndoRecordWithABadChecksumIsRefusedAtTheCrc() throws Exception {
    File f = sample().file;
    RegionDamage.withoutRedoLog(f); // a region from before the redo log (region-format.md §4)
    RegionDamage.putLong(f, UNDO_STATE, 7);
    RegionDamage.write(
        f, UNDO_PAYLOAD_BYTES, new byte[] {24, 0, 0, 0, 0, 0, 0, 0}); // 24 bytes, stored CRC 0
    RegionDamage.write(f, UNDO_PAYLOAD, new byte[24]); // whose CRC is not 0
    Finding x = refused(f, "NVM_ECORRUPT", UNDO_CRC);
    assertTrue(x.message(), x.message().contains("checksum mismatch"));
  }

  @Test
  public void undoEntryPastThePayloadIsRefusedAtTheEntryCount() throws Exception {
    File f = sample().file;
    RegionDamage.withoutRedoLog(f);
    RegionDamage.putLong(f, UNDO_STATE, 7); // an empty payload (its CRC is 0) that claims one entry
    RegionDamage.write(
        f, UNDO_ENTRY_COUNT, new byte[] {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}); // count, bytes, CRC
    Finding x = refused(f, "NVM_ECORRUPT", UNDO_ENTRY_COUNT);
    assertTrue(x.message(), x.message().contains("runs past the payload"));
  }

  @Test
  public void regionInUseByAWriterIsRefusedAsBusy() throws Exception {
    File f = sample().file;
    try (Region writer = Region.open(f, PersistMode.EMULATED)) {
      Finding x = refused(f, "NVM_EBUSY", -1);
      assertTrue(x.format(), x.format().startsWith("ERROR: REFUSED: "));
    }
  }

  @Test
  public void missingFileIsAnError() throws Exception {
    CheckReport r = RegionCheck.run(shm.file("nope"));
    CheckAssert.onlyError(r, Finding.Kind.REFUSED, -1);
    assertTrue(r.format(), r.findings().get(0).message().contains("NVM_EIO"));
  }
}
