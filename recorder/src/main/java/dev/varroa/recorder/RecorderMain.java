package dev.varroa.recorder;

import dev.varroa.protocol.ReleaseVersion;
import dev.varroa.recorder.logs.BlobStoreSettings;
import dev.varroa.recorder.logs.LogStores;
import dev.varroa.recorder.retention.RetentionRules;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The recorder process: settings from the environment (see RecorderSettings.fromEnv), stops gracefully on SIGTERM. */
public final class RecorderMain {

  private static final Logger LOG = LoggerFactory.getLogger(RecorderMain.class);

  private RecorderMain() {
  }

  public static void main(String[] args) throws Exception {
    if (ReleaseVersion.requested(args)) {
      System.out.println(ReleaseVersion.line("recorder"));
      return;
    }
    Recorder recorder;
    try {
      // VARROA_BLOB_MODE: the console log store whose logs the retention sweep ages, none when unset
      recorder = Recorder.start(RecorderSettings.fromEnv(), RetentionRules.fromEnv(),
          LogStores.open(BlobStoreSettings.fromRecorderEnv(System.getenv()), "varroa-recorder"));
    } catch (IllegalArgumentException | IOException e) {
      LOG.error("event=recorder_start_failed error=\"{}\"", e.getMessage());
      System.exit(1);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        recorder.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        stopped.countDown();
      }
    }, "varroa-recorder-shutdown"));
    stopped.await();
  }
}
